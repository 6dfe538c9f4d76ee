"""What the browser tests share: their failure type, headless Chromium driven through chromedriver, and
the loop that runs their scenarios.

The binaries come from the environment scripts/test-browser sets: CHROMIUM and CHROMEDRIVER.
"""

import os
import time
import traceback

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

DEADLINE_SECONDS = 30


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def make_driver(download_dir=None):
    """Headless Chromium with its console and network log kept; downloads go to `download_dir` when given."""
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ["CHROMIUM"]
    for argument in [
        "--headless=new",
        "--no-sandbox",  # root in a container has no user namespace for the sandbox
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1360,1100",
        "--lang=en-US",
        "--force-device-scale-factor=1",
        "--no-first-run",
        "--disable-extensions",
    ]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    if download_dir:
        options.add_experimental_option(
            "prefs", {"download.default_directory": download_dir, "download.prompt_for_download": False}
        )
    driver = webdriver.Chrome(options=options, service=Service(executable_path=os.environ["CHROMEDRIVER"]))
    if download_dir:
        driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": download_dir})
    return driver


def wait_for(driver, condition, what):
    try:
        return WebDriverWait(driver, DEADLINE_SECONDS, poll_frequency=0.1).until(lambda d: condition(d))
    except TimeoutException:
        raise Failure(f"timed out waiting for {what}") from None


def run(driver, scenarios, summary, after_failure=None):
    """Runs each `(name, body)` of `scenarios`, a failure not stopping the others: prints `ok    NAME` (with
    what `body` returned, if anything) or `FAIL  NAME: why`, calls `after_failure(name)` after a failure, then
    quits `driver` and prints `SUMMARY: N passed, M failed`. Returns the exit status."""
    passed, failed = 0, 0
    try:
        for name, body in scenarios:
            started = time.monotonic()
            try:
                note = body()
                passed += 1
                print(f"ok    {name}{note or ''} ({time.monotonic() - started:.1f}s)", flush=True)
            except Exception as error:  # noqa: BLE001 - every failure is reported, then the run goes on
                failed += 1
                print(f"FAIL  {name}: {error}", flush=True)
                if not isinstance(error, Failure):
                    traceback.print_exc()
                if after_failure:
                    try:
                        after_failure(name)
                    except Exception:  # noqa: BLE001
                        pass
    finally:
        driver.quit()
    print(f"{summary}: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1

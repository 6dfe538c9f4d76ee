"""Browser tests of the trip explorer and the API reference, in headless Chromium driven by Selenium.

Run by scripts/test-browser, which starts PostgreSQL and the server, seeds data and mints tokens, then
passes them in the environment:

  BASE                 the server's address, e.g. http://127.0.0.1:18080
  ANALYST_TOKEN        a valid analyst token
  EXPIRING_TOKEN       an analyst token with a one-second lifetime (expired by the time it is used)
  OPENAPI_PATH         the repository's openapi.yaml
  SCREENSHOT_DIR       where the screenshots of each state go
  DOWNLOAD_DIR         an empty directory for the browser's downloads (failure screenshots go beside it)
  CHROMIUM, CHROMEDRIVER  the browser and driver binaries

Every scenario compares what the page shows with the API's own answers, fetched here with urllib. After
each one the browser's log must hold no error or warning (CSP violations are errors there), except the
network lines Chromium writes for the exact API refusals a scenario provokes. Waits poll with deadlines;
nothing is asserted about time.
"""

import functools
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

import yaml
from chromium import DEADLINE_SECONDS, Failure, check, make_driver, run, wait_for
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

BASE = os.environ["BASE"]
ANALYST_TOKEN = os.environ["ANALYST_TOKEN"]
EXPIRING_TOKEN = os.environ["EXPIRING_TOKEN"]
OPENAPI_PATH = os.environ["OPENAPI_PATH"]
SCREENSHOT_DIR = os.environ["SCREENSHOT_DIR"]
DOWNLOAD_DIR = os.environ["DOWNLOAD_DIR"]

# A window of the seeded data (the seeder writes the two years before 2026-11-01) seen from New York; the
# space in the city's name must reach the API as a space.
FILTER = {"from": "2026-08-01", "to": "2026-11-01", "tz": "America/New_York", "city": "New York"}
PAGE_SIZE = "10"


def equal(actual, expected, what):
    if actual != expected:
        raise Failure(f"{what}:\n  page: {actual!r}\n  API:  {expected!r}")


# ---- the API, read directly ----


def api(path, params, accept="application/json", token=ANALYST_TOKEN):
    """(status, headers, body bytes) of GET path?params, refusals included."""
    # Spaces as %20: the API reads "+" in a query as a plus sign.
    url = f"{BASE}{path}?{urllib.parse.urlencode(params, quote_via=urllib.parse.quote)}"
    request = urllib.request.Request(
        url, headers={"Authorization": f"Bearer {token}", "Accept": accept, "Accept-Language": "en-US"}
    )
    try:
        with urllib.request.urlopen(request, timeout=DEADLINE_SECONDS) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def api_json(path, params, **kwargs):
    status, _, body = api(path, params, **kwargs)
    return status, json.loads(body)


# ---- the browser ----


def by_id(driver, element_id):
    return driver.find_element(By.ID, element_id)


def settled(driver):
    """True once neither the table nor the chart is loading."""
    return driver.execute_script(
        "return document.getElementById('trips').getAttribute('aria-busy') === 'false'"
        " && document.getElementById('chart').getAttribute('aria-busy') === 'false'"
    )


def wait_settled(driver):
    wait_for(driver, settled, "the table and the chart to finish loading")


def set_field(driver, element_id, value):
    field = by_id(driver, element_id)
    field.clear()
    if value:
        field.send_keys(value)


def set_filter(driver, values):
    for name in ["from", "to", "tz", "city", "product", "rider_id"]:
        set_field(driver, name, values.get(name, ""))
    Select(by_id(driver, "status")).select_by_value(values.get("status", ""))


def apply(driver):
    by_id(driver, "apply").click()
    wait_settled(driver)


def paste_token(driver, token):
    set_field(driver, "token", token)
    driver.find_element(By.CSS_SELECTOR, "#token-form button[type=submit]").click()


def page_rows(driver):
    """Each row of the trips table as the text of its cells, with the trip id first."""
    return driver.execute_script(
        """
        return [...document.querySelectorAll('#trips tbody tr[data-trip-id]')].map(row =>
          [row.dataset.tripId, ...[...row.cells].map(cell => cell.textContent)]);
        """
    )


def expected_rows(page):
    """The rows the page should show for an API page: the display strings, as laid out in the table."""
    return [
        [
            trip["id"],
            trip["display"]["date"] + trip["display"]["time"],
            trip["display"]["title"] + "#" + trip["id"],
            trip["rider_id"],
            trip["city"],
            trip["product"],
            trip["display"]["status"],
            trip["display"]["distance"],
            trip["display"]["duration"],
            trip["display"]["fare"],
        ]
        for trip in page["data"]
    ]


def table_message(driver):
    return driver.execute_script(
        "const row = document.querySelector('#trips tbody tr.state'); return row ? row.textContent : null"
    )


def problem_shown(driver):
    return driver.execute_script(
        """
        const box = document.getElementById('problem');
        return box.hidden ? null : [document.getElementById('problem-title').textContent,
                                    document.getElementById('problem-detail').textContent];
        """
    )


def screenshot(driver, name, directory=SCREENSHOT_DIR):
    os.makedirs(directory, exist_ok=True)
    # The whole page: the window grows to the document's height for the shot.
    height = driver.execute_script("return document.documentElement.scrollHeight")
    width = driver.get_window_size()["width"]
    driver.set_window_size(width, max(800, min(height + 120, 4000)))
    driver.save_screenshot(os.path.join(directory, f"{name}.png"))
    driver.set_window_size(width, 1100)


class BrowserLog:
    """The browser's console and network log, drained after each scenario."""

    def __init__(self, driver):
        self.driver = driver

    def assert_clean(self, allowed_refusals=()):
        """No error or warning, except network lines for the given (path, status) refusals."""
        unexpected = []
        for entry in self.driver.get_log("browser"):
            if entry["level"] not in ("SEVERE", "WARNING"):
                continue
            message = entry["message"]
            allowed = entry.get("source") == "network" and any(
                f"{BASE}{path}?" in message and f"status of {status}" in message for path, status in allowed_refusals
            )
            if not allowed:
                unexpected.append(f"{entry['level']} {entry.get('source')}: {message}")
        check(not unexpected, "the browser logged:\n  " + "\n  ".join(unexpected))


# ---- scenarios ----


def scenario_docs_page(driver, log):
    """Every operation, parameter, response and example of openapi.yaml is on the reference page."""
    with open(OPENAPI_PATH, encoding="utf-8") as file:
        spec = yaml.safe_load(file)

    def resolve(node):
        while isinstance(node, dict) and "$ref" in node:
            target = spec
            for part in node["$ref"][2:].split("/"):
                target = target[part]
            node = target
        return node

    driver.get(f"{BASE}/docs")
    wait_for(driver, lambda d: by_id(d, "reference").get_attribute("aria-busy") == "false", "the reference to render")
    check(not driver.find_elements(By.CSS_SELECTOR, "#reference .problem"), "the reference shows an error")
    expected_examples = 0
    operations = 0
    for path, item in spec["paths"].items():
        for method in ["get", "put", "post", "delete", "patch"]:
            if method not in item:
                continue
            operations += 1
            operation = item[method]
            selector = f'section.operation[data-method="{method.upper()}"][data-path="{path}"]'
            sections = driver.find_elements(By.CSS_SELECTOR, selector)
            equal(len(sections), 1, f"sections for {method.upper()} {path}")
            section = sections[0]
            parameters = [resolve(p) for p in item.get("parameters", []) + operation.get("parameters", [])]
            shown = [row.get_attribute("data-name") for row in section.find_elements(By.CSS_SELECTOR, "tr.parameter")]
            equal(shown, [p["name"] for p in parameters], f"parameters of {method.upper()} {path}")
            statuses = [r.get_attribute("data-status") for r in section.find_elements(By.CSS_SELECTOR, ".response")]
            equal(statuses, [str(s) for s in operation["responses"]], f"responses of {method.upper()} {path}")
            media = []
            for parameter in parameters:
                media.append(parameter)
            if "requestBody" in operation:
                media.extend(resolve(operation["requestBody"]).get("content", {}).values())
            for response in operation["responses"].values():
                media.extend(resolve(response).get("content", {}).values())
            count = sum(len(m.get("examples", {})) + (1 if "example" in m else 0) for m in media)
            shown_examples = section.find_elements(By.CSS_SELECTOR, "details.example")
            equal(len(shown_examples), count, f"examples of {method.upper()} {path}")
            expected_examples += count
    equal(len(driver.find_elements(By.CSS_SELECTOR, "section.operation")), operations, "operations on the page")
    check(expected_examples > 0, "the document has examples to show")
    # An example's text is the example itself: the first one of the stats route, pretty-printed.
    stats_example = resolve(spec["paths"]["/v1/trips/stats"]["get"]["responses"]["200"])["content"][
        "application/json"
    ]["examples"]["daily"]
    shown = driver.execute_script(
        "return document.querySelector('section[data-path=\"/v1/trips/stats\"] .response[data-status=\"200\"] "
        "details.example pre').textContent"
    )
    equal(json.loads(shown), resolve(stats_example)["value"], "the stats example")
    schemas = spec["components"]["schemas"]
    for name in schemas:
        check(driver.find_elements(By.ID, f"schema-{name}"), f"schema {name} is on the page")
    codes = schemas["ProblemCode"]
    for code, description in zip(codes["enum"], codes["x-enum-descriptions"], strict=True):
        entry = by_id(driver, f"problem-{code}")
        check(f"urn:trip-history:problem:{code}" in entry.text, f"the entry of {code} shows its type")
        check(" ".join(description.split()[:4]).replace("`", "") in entry.text, f"the entry of {code} explains it")
    screenshot(driver, "docs")


def scenario_problem_link(driver, log):
    """A problem's Link field leads to its code's entry on the reference page, which names its type."""
    status, headers, body = api("/v1/trips", {"limit": "0"})
    equal(status, 400, "the status of limit=0")
    problem = json.loads(body)
    target = headers["Link"].split(";")[0].strip("<>")
    equal(target, f"/docs#problem-{problem['code']}", "the Link field's target")
    check('rel="describedby"' in headers["Link"], "the Link field's relation")
    driver.get(f"{BASE}{target}")
    wait_for(driver, lambda d: by_id(d, "reference").get_attribute("aria-busy") == "false", "the reference to render")
    entry = by_id(driver, target.split("#")[1])
    check(problem["type"] in entry.text, "the linked entry names the problem's type")
    log.assert_clean()


def scenario_no_token(driver, log):
    driver.get(f"{BASE}/")
    wait_for(driver, lambda d: d.current_url.startswith(f"{BASE}/explorer"), "the redirect to /explorer")
    wait_settled(driver)
    equal(table_message(driver), "Paste an analyst token to load trips.", "the table without a token")
    check(problem_shown(driver) is None, "no problem is shown without a token")
    screenshot(driver, "explorer-no-token")
    log.assert_clean()


def scenario_pages(driver, log):
    """Paste a token, filter by city and window, page older and back: each page is the API's page."""
    paste_token(driver, ANALYST_TOKEN)
    wait_settled(driver)
    set_filter(driver, FILTER)
    Select(by_id(driver, "limit")).select_by_value(PAGE_SIZE)  # submits the form
    wait_settled(driver)
    apply(driver)

    query = urllib.parse.parse_qs(urllib.parse.urlparse(driver.current_url).query)
    for name, value in FILTER.items():
        equal(query.get(name), [value], f"the URL's {name}")
    check(ANALYST_TOKEN not in driver.current_url, "the token is not in the URL")

    params = dict(FILTER, limit=PAGE_SIZE)
    status, first = api_json("/v1/trips", params)
    equal(status, 200, "the API's first page")
    check(first["page"]["next_cursor"], "the test data fills more than one page")
    equal(page_rows(driver), expected_rows(first), "page 1")
    check(by_id(driver, "prev-page").get_attribute("disabled") is not None, "no newer page from page 1")
    screenshot(driver, "explorer-trips")

    pages = [first]
    for number in (2, 3):
        by_id(driver, "next-page").click()
        wait_settled(driver)
        status, page = api_json("/v1/trips", dict(params, cursor=pages[-1]["page"]["next_cursor"]))
        equal(status, 200, f"the API's page {number}")
        equal(page_rows(driver), expected_rows(page), f"page {number}")
        equal(by_id(driver, "page-label").text, f"Page {number} · {len(page['data'])} trips", "the page label")
        pages.append(page)
    by_id(driver, "prev-page").click()
    wait_settled(driver)
    status, back = api_json("/v1/trips", dict(params, cursor=pages[-1]["page"]["prev_cursor"]))
    equal(status, 200, "the API's page 2, going back")
    equal(page_rows(driver), expected_rows(back), "page 2 again")
    equal([t["id"] for t in back["data"]], [t["id"] for t in pages[1]["data"]], "the API's page 2, both ways")
    log.assert_clean()


def chart_bars(driver, kind):
    return driver.execute_script(
        f"""
        return [...document.querySelectorAll('#chart rect.bar-{kind}')].map(bar =>
          [bar.dataset.bucket, Number(bar.dataset.value), Number(bar.getAttribute('height')),
           Number(bar.getAttribute('y')) + Number(bar.getAttribute('height'))]);
        """
    )


def assert_bars_match(bars, expected, what):
    equal([[b[0], b[1]] for b in bars], expected, what)
    # Drawn to scale: every bar's height over its value is the same, and all bars stand on one baseline.
    ratios = [height / value for _, value, height, _ in bars if value > 0]
    check(ratios and max(ratios) - min(ratios) < 1e-6 * max(ratios), f"{what}: bars are not drawn to one scale")
    check(len({round(b[3], 6) for b in bars}) == 1, f"{what}: bars do not share a baseline")


def scenario_chart(driver, log):
    """The chart's bars are the stats endpoint's buckets, per day and per month."""
    for group_by in ("day", "month"):
        Select(by_id(driver, "group_by")).select_by_value(group_by)  # submits the form
        wait_for(
            driver,
            lambda d: settled(d) and d.find_elements(By.CSS_SELECTOR, "#chart rect.bar-trips")
            and f"group_by={group_by}" in d.current_url,
            f"the {group_by} chart",
        )
        status, stats = api_json("/v1/trips/stats", dict(FILTER, group_by=group_by))
        equal(status, 200, f"the API's {group_by} stats")
        check(stats["data"], "the stats have buckets")
        trips = chart_bars(driver, "trips")
        assert_bars_match(trips, [[b["bucket_start"], b["trips"]] for b in stats["data"]], f"trip bars per {group_by}")
        currency = Select(by_id(driver, "currency")).first_selected_option.get_attribute("value")
        equal(currency, "USD", "the chart's currency for New York")
        fares = chart_bars(driver, "fare")
        expected = [[b["bucket_start"], b["total_fare_minor"].get("USD", 0) / 100] for b in stats["data"]]
        assert_bars_match(fares, expected, f"fare bars per {group_by}")
        tips = chart_bars(driver, "tips")
        expected = [[b["bucket_start"], b["total_tips_minor"].get("USD", 0) / 100] for b in stats["data"]]
        check(any(value > 0 for _, value in expected), "the seeded New York trips have tips")
        assert_bars_match(tips, expected, f"tip bars per {group_by}")
        labels = driver.execute_script(
            "return [...document.querySelectorAll('#chart .x-axis text')].map(t => t.textContent)"
        )
        check(len(labels) >= 2 and labels[-1] == "Period start (America/New_York)", f"x axis labels: {labels}")
        spans = driver.execute_script(
            "return [...document.querySelectorAll('#chart .x-axis text')].slice(0, -1)"
            ".map(t => { const box = t.getBBox(); return [box.x, box.x + box.width]; })"
        )
        check(all(a[1] <= b[0] for a, b in zip(spans, spans[1:])), f"x axis labels overlap: {labels}")
        if group_by == "month":
            screenshot(driver, "explorer-chart-monthly")
    log.assert_clean()


def downloaded_file(suffix):
    def find(_driver):
        names = [n for n in os.listdir(DOWNLOAD_DIR) if n.endswith(suffix)]
        return os.path.join(DOWNLOAD_DIR, names[0]) if names else False

    return find


def scenario_downloads(driver, log):
    """The CSV and NDJSON downloads are byte for byte the server's exports of the same filter."""
    for button, accept, suffix in [
        ("download-csv", "text/csv", ".csv"),
        ("download-ndjson", "application/x-ndjson", ".ndjson"),
    ]:
        by_id(driver, button).click()
        path = wait_for(driver, downloaded_file(suffix), f"the {suffix} download")
        status, headers, body = api("/v1/trips", FILTER, accept=accept)
        equal(status, 200, f"the API's {suffix} export")
        check(len(body) > 0 and body.count(b"\n") > 10, f"the {suffix} export has rows")

        def complete(_driver, path=path, size=len(body)):
            return os.path.getsize(path) == size and by_id(_driver, "download-status").text.startswith("Saved")

        wait_for(driver, complete, f"the {suffix} download to complete")
        with open(path, "rb") as file:
            equal(file.read(), body, f"the downloaded {suffix}")
        equal(os.path.basename(path), f"trips_New-York_2026-08-01_2026-11-01{suffix}", "the file name")
    log.assert_clean()


def scenario_bad_range(driver, log):
    """A window that ends before it starts shows the API's problem, title and detail."""
    set_filter(driver, dict(FILTER, **{"from": "2026-10-01", "to": "2026-09-01"}))
    apply(driver)
    status, problem = api_json("/v1/trips", dict(FILTER, **{"from": "2026-10-01", "to": "2026-09-01", "limit": PAGE_SIZE}))
    equal(status, 400, "the API's answer to a reversed window")
    wait_for(driver, problem_shown, "the problem")
    equal(problem_shown(driver), [problem["title"], problem["detail"]], "the problem shown")
    equal(table_message(driver), "No trips loaded.", "the table after a refusal")
    screenshot(driver, "explorer-problem-range")
    log.assert_clean(allowed_refusals=[("/v1/trips", 400), ("/v1/trips/stats", 400)])


def scenario_empty(driver, log):
    set_filter(driver, dict(FILTER, city="Atlantis"))
    apply(driver)
    status, page = api_json("/v1/trips", dict(FILTER, city="Atlantis", limit=PAGE_SIZE))
    equal((status, page["data"]), (200, []), "the API's answer for an unknown city")
    equal(table_message(driver), "No trips match this filter.", "the empty table")
    equal(by_id(driver, "chart").text, "No trips match this filter.", "the empty chart")
    check(problem_shown(driver) is None, "no problem for an empty result")
    screenshot(driver, "explorer-empty")
    log.assert_clean()


def scenario_shared_url(driver, log):
    """A filtered URL opened afresh shows that filter's first page (the token stays in the tab only)."""
    params = dict(FILTER, status="completed", group_by="week", limit=PAGE_SIZE)
    # Written as an HTML form would (a space as "+"), which the page reads as a space.
    driver.get(f"{BASE}/explorer?{urllib.parse.urlencode(params)}")
    check("New+York" in driver.current_url, "the shared URL has its space as +")
    wait_for(driver, lambda d: settled(d) and page_rows(d), "the shared view to load")
    for name in ["from", "to", "tz", "city"]:
        equal(by_id(driver, name).get_attribute("value"), FILTER[name], f"the {name} field from the URL")
    equal(Select(by_id(driver, "status")).first_selected_option.get_attribute("value"), "completed", "status")
    status, page = api_json("/v1/trips", {k: v for k, v in params.items() if k != "group_by"})
    equal(status, 200, "the API's page for the shared filter")
    equal(page_rows(driver), expected_rows(page), "the shared view's first page")
    stored = driver.execute_script("return sessionStorage.getItem('trip-history.analyst-token')")
    equal(stored, ANALYST_TOKEN, "the token in sessionStorage")
    check(driver.execute_script("return localStorage.length") == 0, "nothing is kept in localStorage")
    log.assert_clean()


def scenario_loading(driver, log):
    """While the API is slow the table and the chart say they are loading."""
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 4000, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    try:
        by_id(driver, "apply").click()
        busy = driver.execute_script("return document.getElementById('trips').getAttribute('aria-busy')")
        equal(busy, "true", "the table's busy state right after Apply")
        equal(table_message(driver), "Loading trips…", "the loading row")
        screenshot(driver, "explorer-loading")
    finally:
        driver.execute_cdp_cmd(
            "Network.emulateNetworkConditions",
            {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
        )
    wait_settled(driver)
    check(page_rows(driver), "rows after loading")
    log.assert_clean()


def scenario_expired_token(driver, log):
    """An expired token shows the API's 401 problem."""

    def expired(_driver):
        return api("/v1/trips", dict(FILTER, limit=PAGE_SIZE), token=EXPIRING_TOKEN)[0] == 401

    wait_for(driver, expired, "the short-lived token to expire")
    status, problem = api_json("/v1/trips", dict(FILTER, limit=PAGE_SIZE), token=EXPIRING_TOKEN)
    equal(status, 401, "the API's answer to an expired token")
    driver.get(f"{BASE}/explorer?{urllib.parse.urlencode(FILTER)}&limit={PAGE_SIZE}")
    wait_settled(driver)
    paste_token(driver, EXPIRING_TOKEN)
    wait_for(driver, lambda d: settled(d) and problem_shown(d), "the problem")
    equal(problem_shown(driver), [problem["title"], problem["detail"]], "the problem shown")
    screenshot(driver, "explorer-problem-token")
    log.assert_clean(allowed_refusals=[("/v1/trips", 401), ("/v1/trips/stats", 401)])


def scenario_policy_enforced(driver, log):
    """The page's Content-Security-Policy blocks inline script, and the log check above sees the violation."""
    injected = driver.execute_script(
        """
        const script = document.createElement('script');
        script.textContent = 'window.injected = true';
        document.head.append(script);
        return window.injected === true;
        """
    )
    check(not injected, "an inline script ran despite the policy")
    try:
        log.assert_clean()
    except Failure as failure:
        check("Content Security Policy" in str(failure), f"the violation was logged otherwise: {failure}")
    else:
        raise Failure("the blocked inline script left no trace in the browser's log")


SCENARIOS = [
    scenario_docs_page,
    scenario_problem_link,
    scenario_no_token,
    scenario_pages,
    scenario_chart,
    scenario_downloads,
    scenario_loading,
    scenario_bad_range,
    scenario_empty,
    scenario_shared_url,
    scenario_expired_token,
    scenario_policy_enforced,
]


def main():
    os.makedirs(DOWNLOAD_DIR, exist_ok=True)
    driver = make_driver(DOWNLOAD_DIR)
    log = BrowserLog(driver)

    def keep_screenshot(name):
        # Beside the downloads, not among the README's screenshots.
        screenshot(driver, f"failed-{name}", directory=os.path.dirname(DOWNLOAD_DIR))
        print(f"      screenshot: {os.path.dirname(DOWNLOAD_DIR)}/failed-{name}.png", flush=True)
        driver.get_log("browser")  # drained so the next scenario starts clean

    scenarios = [
        (scenario.__name__.removeprefix("scenario_"), functools.partial(scenario, driver, log))
        for scenario in SCENARIOS
    ]
    return run(driver, scenarios, "browser", after_failure=keep_screenshot)


if __name__ == "__main__":
    sys.exit(main())

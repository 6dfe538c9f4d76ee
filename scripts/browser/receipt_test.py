"""The printable receipt: headless Chromium prints it to PDF and the PDF's text holds the localized total.

Run by scripts/test-browser after the explorer tests, against the same server, with in the environment:

  BASE                 the server's address, e.g. http://127.0.0.1:18080
  SERVICE_TOKEN        a service token, which records the trips
  RIDER_ID             a rider with no trips yet, and RIDER_TOKEN, that rider's token
  PDF_DIR              where the printed receipts go (kept when the run fails)
  CHROMIUM, CHROMEDRIVER  the browser and driver binaries

For each locale it records a trip with a fare breakdown and a tip through the API, reads the receipt's JSON
(the expected strings: `total.amount`, `total.label` and others exactly as the formatter wrote them, no-break
spaces included), opens the HTML receipt in Chromium with the rider's token (Chrome DevTools'
`Network.setExtraHTTPHeaders`, so the page is fetched as a browser fetches it), prints it with
`Page.printToPDF`, extracts the text with poppler's `pdftotext` and looks for those strings. pdftotext writes
every Unicode space as U+0020 (poppler breaks words there), so each string is looked for with its spaces
written that way, and the PDF's own text layer (its ToUnicode maps) must hold every character of the strings,
the no-break spaces included. The page must load nothing, run nothing and apply its style sheet (which its
Content-Security-Policy allows by hash alone).
Prints `receipts: N passed, M failed`.
"""

import base64
import functools
import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.request
import zlib
from datetime import datetime, timedelta, timezone

from chromium import DEADLINE_SECONDS, check, make_driver, run, wait_for

BASE = os.environ["BASE"]
SERVICE_TOKEN = os.environ["SERVICE_TOKEN"]
RIDER_ID = os.environ["RIDER_ID"]
RIDER_TOKEN = os.environ["RIDER_TOKEN"]
PDF_DIR = os.environ["PDF_DIR"]

# One trip per locale, in the currency of its city: (locale, city, zone, currency, breakdown, tip), amounts in
# minor units. The breakdown sums to the fare.
TRIPS = [
    ("en-US", "New York", "America/New_York", "USD", [("base", 250), ("distance", 980), ("time", 420),
                                                      ("booking_fee", 234), ("promotion", -200)], 350),
    ("fr-FR", "Paris", "Europe/Paris", "EUR", [("base", 300), ("distance", 1100), ("time", 350),
                                               ("taxes", 184)], 200),
    ("ja-JP", "Tokyo", "Asia/Tokyo", "JPY", [("base", 500), ("distance", 1034), ("time", 300)], 0),
]


def call(method, path, token, body=None, headers=None):
    """(status, headers, body bytes) of a request to the API, refusals included."""
    request = urllib.request.Request(
        f"{BASE}{path}", method=method, data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {token}", **({"Content-Type": "application/json"} if body else {}),
                 **(headers or {})},
    )
    try:
        with urllib.request.urlopen(request, timeout=DEADLINE_SECONDS) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def record_trip(city, zone, currency, breakdown, tip):
    fare = sum(amount for _, amount in breakdown)
    # Yesterday: a tip is accepted only for some days after the ride.
    requested = datetime.now(timezone.utc).replace(microsecond=0) - timedelta(days=1)
    status, _, body = call("POST", "/v1/trips", SERVICE_TOKEN, {
        "rider_id": RIDER_ID, "status": "completed", "product": "UberX", "city": city, "time_zone": zone,
        "requested_at": requested.isoformat(), "started_at": (requested + timedelta(minutes=4)).isoformat(),
        "completed_at": (requested + timedelta(minutes=31)).isoformat(),
        "pickup": {"lat": 48.8566, "lon": 2.3522, "address": f"1 Main Street, {city}"},
        "dropoff": {"lat": 48.8738, "lon": 2.2950, "address": f"<b>Grand</b> Station & Co, {city}"},
        "distance_m": 5200, "duration_s": 1620,
        "fare": {"amount_minor": fare, "currency": currency,
                 "breakdown": [{"kind": kind, "amount_minor": amount} for kind, amount in breakdown]},
        "payment": {"method": "card", "brand": "Visa", "last4": "4242"},
        "driver": {"first_name": "Camille",
                   "vehicle": {"make": "Renault", "model": "Zoe", "color": "White", "plate": "AB-123-CD"}},
    })
    check(status == 201, f"POST /v1/trips answered {status}: {body[:300]!r}")
    trip_id = json.loads(body)["id"]
    if tip:
        status, _, body = call("POST", f"/v1/riders/{RIDER_ID}/trips/{trip_id}/adjustments", SERVICE_TOKEN,
                               {"kind": "tip", "amount_minor": tip, "reason": "In-app tip"})
        check(status == 201, f"the tip answered {status}: {body[:300]!r}")
    return trip_id, fare + tip


def receipt_json(trip_id, locale):
    status, headers, body = call("GET", f"/v1/riders/{RIDER_ID}/trips/{trip_id}/receipt", RIDER_TOKEN,
                                 headers={"Accept": "application/json", "Accept-Language": locale})
    check(status == 200, f"the JSON receipt answered {status}: {body[:300]!r}")
    check(headers["Content-Language"] == locale, f"Content-Language {headers['Content-Language']!r}")
    return json.loads(body)


def pdf_text(path):
    """The text of the PDF at `path`, as pdftotext reads it (UTF-8, in the order it was drawn)."""
    result = subprocess.run(["pdftotext", "-raw", "-enc", "UTF-8", path, "-"], capture_output=True,
                            timeout=DEADLINE_SECONDS, check=False)
    check(result.returncode == 0, f"pdftotext failed: {result.stderr.decode(errors='replace')}")
    return result.stdout.decode("utf-8")


# Poppler ends a word at any Unicode space (its UnicodeIsWhiteSpace: U+00A0, U+202F, U+3000 and the rest) and
# writes U+0020 between words, so pdftotext cannot show a no-break space as such.
UNICODE_SPACES = re.compile("[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]")


def as_pdftotext_writes(text):
    return UNICODE_SPACES.sub(" ", text)


def pdf_characters(path):
    """Every character the PDF's text layer maps a glyph to: the targets of its ToUnicode CMaps."""
    with open(path, "rb") as file:
        data = file.read()
    characters = set()
    for stream in re.findall(rb"stream\r?\n(.*?)\r?\nendstream", data, re.S):
        try:
            cmap = zlib.decompress(stream).decode("latin-1")
        except zlib.error:
            continue
        for block in re.findall(r"beginbfchar(.*?)endbfchar", cmap, re.S):
            for target in re.findall(r"<[0-9A-Fa-f]+>\s*<([0-9A-Fa-f]+)>", block):
                characters.update(bytes.fromhex(target).decode("utf-16-be", "replace"))
        for block in re.findall(r"beginbfrange(.*?)endbfrange", cmap, re.S):
            for first, last, target in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
                start = int(target, 16)
                characters.update(chr(start + offset) for offset in range(int(last, 16) - int(first, 16) + 1))
    return characters


def console_problems(driver):
    return [f"{entry['level']} {entry.get('source')}: {entry['message']}" for entry in driver.get_log("browser")
            if entry["level"] in ("SEVERE", "WARNING")]


def print_receipt(driver, trip_id, locale, receipt):
    """Opens the HTML receipt as the rider in `locale`, checks the page, and returns the PDF's text."""
    driver.execute_cdp_cmd("Network.setExtraHTTPHeaders", {
        "headers": {"Authorization": f"Bearer {RIDER_TOKEN}", "Accept-Language": locale}})
    driver.get(f"{BASE}/v1/riders/{RIDER_ID}/trips/{trip_id}/receipt")
    wait_for(driver, lambda d: d.execute_script("return document.readyState") == "complete", "the receipt")
    page = driver.execute_script(
        """
        return {lang: document.documentElement.lang, title: document.querySelector('h1')?.textContent,
                scripts: document.scripts.length, links: document.querySelectorAll('link, img, iframe').length,
                collapsed: getComputedStyle(document.querySelector('table')).borderCollapse,
                dropoff: [...document.querySelectorAll('dd')].map(dd => dd.textContent),
                resources: performance.getEntriesByType('resource').length};
        """
    )
    check(page["lang"] == locale, f"the page is in {page['lang']!r}, not {locale}")
    check(page["scripts"] == 0 and page["links"] == 0 and page["resources"] == 0,
          f"the page is not self-contained: {page}")
    # The style sheet applied: the policy's hash matched it.
    check(page["collapsed"] == "collapse", f"the page's style sheet was not applied: {page}")
    # The address holds markup, shown as the text it is.
    check(receipt["trip"]["to"] in page["dropoff"], f"the drop-off address is not shown as text: {page['dropoff']}")
    problems = console_problems(driver)
    check(not problems, "the browser logged:\n  " + "\n  ".join(problems))
    printed = driver.execute_cdp_cmd("Page.printToPDF", {"printBackground": False, "preferCSSPageSize": True})
    path = os.path.join(PDF_DIR, f"receipt-{locale}.pdf")
    with open(path, "wb") as file:
        file.write(base64.b64decode(printed["data"]))
    return path


def scenario(driver, locale, city, zone, currency, breakdown, tip):
    trip_id, total = record_trip(city, zone, currency, breakdown, tip)
    receipt = receipt_json(trip_id, locale)
    check(receipt["total"]["amount_minor"] == total, f"total {receipt['total']} is not {total}")
    path = print_receipt(driver, trip_id, locale, receipt)
    text = pdf_text(path)
    expected = [receipt["total"]["amount"], receipt["total"]["label"], receipt["lines"][0]["label"],
                receipt["trip"]["time"]]
    if tip:
        expected += [receipt["tips"]["amount"]]
    missing = [value for value in expected if as_pdftotext_writes(value) not in text]
    check(not missing, f"the PDF's text lacks {[ascii(value) for value in missing]}:\n{text}")
    # What pdftotext wrote as a plain space is, in the PDF, the character the formatter wrote.
    unmapped = set("".join(expected)) - pdf_characters(path) - {" "}
    check(not unmapped, f"the PDF's text layer has no glyph for {[ascii(c) for c in sorted(unmapped)]}")
    return f": {ascii(receipt['total']['amount'])} in the PDF"


def main():
    os.makedirs(PDF_DIR, exist_ok=True)
    driver = make_driver()
    driver.execute_cdp_cmd("Network.enable", {})
    scenarios = [(f"receipt {trip[0]}", functools.partial(scenario, driver, *trip)) for trip in TRIPS]
    return run(driver, scenarios, "receipts")


if __name__ == "__main__":
    sys.exit(main())

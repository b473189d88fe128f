"""Drives the dashboard's views in Chromium at 1,280 x 800 as a person would, and reads what each shows beside
the CSV of the same view:

- a view's link (campaign, date range, time zone, buckets) opened in a fresh browser, which has no token, so
  through the sign-in form: its controls, its headline figures and its time series;
- "All campaigns", then Back and Forward between the two views;
- each column group of the campaigns table: whether the campaign column and the group's columns are within the
  window without scrolling sideways, and that the group picked is still picked after a reload;
- the browser console's errors, and axe-core's serious and critical violations on every view.

Prints one JSON object. Usage: views_clicks.py BASE_URL TOKEN CAMPAIGN ZONE DAYS
(run by DashboardViewTests; needs chromium-driver, selenium, axe-selenium-python)
"""
import csv
import datetime
import io
import json
import sys
import urllib.parse
import urllib.request
import zoneinfo

from axe_selenium_python import Axe
from selenium.webdriver.common.by import By

from browser_support import GROUPS, chromium, show_group, table, wait

HEADLINE = ["sent", "displayed", "display-rate", "opened", "open-rate", "influenced", "conversions", "value"]


def csv_rows(base, token, path, params):
    query = urllib.parse.urlencode({**params, "format": "csv"})
    request = urllib.request.Request(f"{base}{path}?{query}", headers={"Authorization": "Bearer " + token})
    return list(csv.DictReader(io.StringIO(urllib.request.urlopen(request).read().decode("utf-8-sig"))))


def start_of_day(day, zone):
    """The instant `day` begins in `zone`, as the API takes it."""
    start = datetime.datetime.combine(day, datetime.time(), tzinfo=zoneinfo.ZoneInfo(zone))
    return start.astimezone(datetime.timezone.utc).isoformat().replace("+00:00", "Z")


def loaded(driver):
    return driver.find_element(By.TAG_NAME, "body").get_attribute("data-loaded") == "true"


def view(driver):
    """What the page shows: its controls, the headline, the series' total displays and the address."""
    wait("the view to load", lambda: loaded(driver))
    series = [element.get_attribute("textContent") for element in driver.find_elements(By.CSS_SELECTOR, "#series-chart title")]
    return {
        "address": driver.current_url,
        "detail": driver.find_element(By.ID, "detail-title").text if driver.find_element(By.ID, "campaign-detail").is_displayed() else None,
        "controls": {field: driver.find_element(By.ID, field).get_attribute("value") for field in ("from", "to", "tz", "bucket")},
        "scope": driver.find_element(By.ID, "headline-scope").text,
        "headline": {name: driver.find_element(By.ID, "headline-" + name).text for name in HEADLINE},
        "series_displayed": sum(int(title.split(": ")[-1].split(" ")[0]) for title in series if title.endswith(" displayed")),
        "series_buckets": len([title for title in series if title.endswith(" displayed")]),
    }


def expected(base, token, campaign, params, bucket, zone, platform=None):
    """The same figures from the CSVs: the campaign's row, or the registered campaigns summed (of one platform's
    events when given)."""
    narrowed = {**params, "platform": platform} if platform else params
    rows = [row for row in csv_rows(base, token, "/v1/reports/campaigns", narrowed) if row["campaign"]]
    if campaign:
        rows = [row for row in rows if row["campaign"] == campaign]
    total = lambda key: sum(int(row[key] or 0) for row in rows)
    rate = lambda part, whole: f"{100 * part / whole:.1f}%" if whole else "–"
    sent, displayed, opened = total("sent"), total("displayed_unique"), total("opened_unique")
    series = csv_rows(base, token, "/v1/reports/timeseries", {**narrowed, "bucket": bucket, "tz": zone, **({"campaign": campaign} if campaign else {})})
    percent = lambda value: f"{100 * float(value):.1f}%" if value else "–"
    return {
        "rates": sorted(percent(row["display_rate"]) for row in rows),
        "headline": {
            "sent": f"{sent:,}", "displayed": f"{displayed:,}", "display-rate": rate(displayed, sent), "opened": f"{opened:,}",
            "open-rate": rate(opened, displayed), "influenced": f"{total('influenced_opens'):,}",
            "conversions": f"{total('conversions'):,}", "value": "–",
        },
        "series_displayed": sum(int(row["displayed_unique"]) for row in series),
        "series_buckets": len(series),
    }


def layout(driver):
    """Per column group: the header cells beyond the window's right edge, and how far the page and the table
    scroll sideways."""
    seen = {}
    for group in GROUPS:
        show_group(driver, group)
        seen[group] = driver.execute_script("""
            const table = document.getElementById("campaigns-table");
            const cells = [...table.querySelectorAll("thead th")];
            return {
              headers: cells.map((cell) => cell.textContent.replace(/ [▲▼]$/, "")),
              outside: cells.filter((cell) => cell.getBoundingClientRect().right > window.innerWidth).map((cell) => cell.textContent),
              page_overflow: document.documentElement.scrollWidth - window.innerWidth,
              table_overflow: table.parentElement.scrollWidth - table.parentElement.clientWidth,
            };""")
    return seen


def accessibility(driver, where, found):
    axe = Axe(driver)
    axe.inject()
    for violation in axe.run()["violations"]:
        if violation["impact"] in ("serious", "critical"):
            found.append({"view": where, "id": violation["id"], "nodes": [node["target"] for node in violation["nodes"]][:5]})


def console_errors(driver, where, found):
    found.extend({"view": where, "message": entry["message"]} for entry in driver.get_log("browser") if entry["level"] == "SEVERE")


def main(base, token, campaign, zone, days):
    today = datetime.datetime.now(zoneinfo.ZoneInfo(zone)).date()
    first = today - datetime.timedelta(days=int(days) - 1)
    params = {"from": start_of_day(first, zone), "to": start_of_day(today + datetime.timedelta(days=1), zone)}
    link = "/dashboard/#" + urllib.parse.urlencode(
        {"campaign": campaign, "from": first.isoformat(), "to": today.isoformat(), "tz": zone, "bucket": "hour"})
    driver = chromium(1280, 800)
    errors, violations = [], []
    try:
        driver.get(base + link)
        wait("the sign-in form", lambda: driver.find_element(By.ID, "token").is_displayed())
        accessibility(driver, "sign-in", violations)
        driver.find_element(By.ID, "token").send_keys(token)
        driver.find_element(By.CSS_SELECTOR, "#sign-in-form button[type=submit]").click()
        deep = view(driver)
        console_errors(driver, "link", errors)
        accessibility(driver, "campaign", violations)

        driver.find_element(By.ID, "all-campaigns").click()
        wait("every campaign", lambda: not driver.find_element(By.ID, "campaign-detail").is_displayed())
        every = view(driver)
        accessibility(driver, "all campaigns", violations)
        shapes = layout(driver)
        accessibility(driver, "outcomes columns", violations)
        show_group(driver, "engagement")

        driver.back()
        wait("the campaign's view again", lambda: driver.find_element(By.ID, "detail-title").text == f"Campaign {campaign}")
        back = view(driver)
        driver.forward()
        wait("every campaign again", lambda: not driver.find_element(By.ID, "campaign-detail").is_displayed())
        forward = view(driver)

        # The platform filter narrows the campaigns table, the headline and the time series, and is part of the
        # view's address.
        driver.find_element(By.CSS_SELECTOR, "#platform option[value=web]").click()
        driver.find_element(By.CSS_SELECTOR, "#filters button[type=submit]").click()
        wait("the web view", lambda: "platform=web" in driver.current_url and loaded(driver))
        web = view(driver)
        # Each platform row's own display rate, from the send records that named the platform.
        show_group(driver, "delivery")
        web["rates"] = sorted(row.get("Display rate") for row in table(driver, "campaigns-table"))
        show_group(driver, "engagement")
        console_errors(driver, "platform", errors)
        driver.find_element(By.CSS_SELECTOR, "#platform option[value='']").click()
        driver.find_element(By.CSS_SELECTOR, "#filters button[type=submit]").click()
        wait("every platform again", lambda: "platform=" not in driver.current_url and loaded(driver))

        driver.refresh()
        wait("the page after a reload", lambda: loaded(driver))
        remembered = [element.get_attribute("value") for element in driver.find_elements(By.CSS_SELECTOR, "#column-groups input") if element.is_selected()]
        console_errors(driver, "views", errors)
    finally:
        driver.quit()
    print(json.dumps({
        "link": link, "deep": deep, "every": every, "back": back, "forward": forward,
        "expected_deep": expected(base, token, campaign, params, "hour", zone),
        "expected_every": expected(base, token, None, params, "hour", zone),
        "web": web, "expected_web": expected(base, token, None, params, "hour", zone, platform="web"),
        "controls": {"from": first.isoformat(), "to": today.isoformat(), "tz": zone, "bucket": "hour"},
        "layout": shapes, "remembered": remembered, "console_errors": errors, "violations": violations,
    }, ensure_ascii=False))


if __name__ == "__main__":
    main(*sys.argv[1:6])

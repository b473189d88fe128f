"""Drives the dashboard in Chromium as a person would: signs in through its form with a token, clicks each
campaign named on the command line in the campaigns table, and reads what the page shows (funnel, time
series, receipt health) beside what the CSV downloads hold for the same campaign. Then, with the admin token,
it makes an alert fire (the server runs with --alert-interval 1), applies the filters and reads the banner of
firing alerts. Prints one JSON object: {"campaigns": [...], "alerts": {...}}.

Usage: dashboard_clicks.py BASE_URL TOKEN ADMIN_TOKEN CAMPAIGN...
       (run by DashboardClickTests; needs chromium-driver, selenium)
"""
import csv
import io
import json
import sys
import time
import urllib.parse
import urllib.request

from selenium.webdriver.common.by import By

from browser_support import chromium, sign_in, wait


def csv_rows(base, token, path, campaign):
    query = urllib.parse.urlencode({"format": "csv", "campaign": campaign})
    request = urllib.request.Request(f"{base}{path}?{query}", headers={"Authorization": "Bearer " + token})
    text = urllib.request.urlopen(request).read().decode("utf-8-sig")
    return list(csv.DictReader(io.StringIO(text)))


def call(base, token, method, path, body=None):
    data = json.dumps(body).encode("utf-8") if body is not None else None
    headers = {"Authorization": "Bearer " + token, "Content-Type": "application/json"}
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read() or b"null")


ALERT = "receipts stopped (alerting)"


def make_an_alert_fire(base, token, admin_token):
    """A push sent ten minutes ago that no device displayed, and an alert on its campaign: it fires at the
    server's next evaluation. Waits until the API says so, so the page is asked only once it does."""
    sent_at = int(time.time()) - 600
    call(base, admin_token, "PUT", "/v1/pushes/alerting-1", {"campaign": "alerting", "sent": 100, "sent_at": sent_at})
    call(base, admin_token, "POST", "/v1/alerts", {
        "name": ALERT, "kind": "receipts_stopped", "window": "1h", "grace": "1m", "threshold": 0.5, "min_sent": 1,
        "campaign": "alerting"})
    wait("the alert to fire", lambda: any(
        alert["name"] == ALERT and alert["state"] == "firing" for alert in call(base, token, "GET", "/v1/alerts")["alerts"]), 30)


def main(base, token, admin_token, campaigns):
    driver = chromium()
    results = []
    try:
        sign_in(driver, base, token)
        wait("the campaigns table", lambda: driver.find_elements(By.CSS_SELECTOR, "#campaigns-table tbody tr"))
        banner_before = driver.find_element(By.ID, "alerts-banner").is_displayed()
        for index, name in enumerate(campaigns):
            link = wait(f"a link for {name}", lambda: driver.find_element(By.LINK_TEXT, name))
            link.click()
            wait(f"the drill-down of {name}", lambda: driver.find_element(By.ID, "detail-title").text == f"Campaign {name}")
            funnel = wait("the funnel", lambda: driver.find_element(By.ID, "funnel-chart").text)
            series = wait("the series", lambda: [
                element.get_attribute("textContent")
                for element in driver.find_elements(By.CSS_SELECTOR, "#series-chart title")
                if element.get_attribute("textContent").endswith(" displayed")])
            health = wait("receipt health", lambda: [
                [cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
                for row in driver.find_elements(By.CSS_SELECTOR, "#versions-table tbody tr")])
            # The drill-down's pushes table: the campaign's own push (seeded as hard-<its place>), no name lost or
            # climbed out of the path. Waited for, as the previous campaign's rows stay until it is drawn.
            def pushes_shown():
                return [row.find_elements(By.TAG_NAME, "td")[0].text for row in driver.find_elements(By.CSS_SELECTOR, "#pushes-table tbody tr")]
            try:
                wait(f"the pushes of {name}", lambda: pushes_shown() == [f"hard-{index}"])
            except TimeoutError:
                pass  # what is shown instead is reported
            pushes = pushes_shown()
            errors = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
            campaign_csv = [row for row in csv_rows(base, token, "/v1/reports/campaigns", name) if row["campaign"] == name]
            results.append({
                "name": name,
                "address": driver.current_url,
                "funnel": funnel,
                "pushes": pushes,
                "errors": errors,
                "series_displayed": sum(int(title.split(": ")[-1].split(" ")[0]) for title in series),
                "health_receipts": sum(int(cells[1].replace(",", "")) for cells in health),
                "csv_displayed_unique": int(campaign_csv[0]["displayed_unique"]) if campaign_csv else None,
                "csv_display_rate": campaign_csv[0]["display_rate"] if campaign_csv else None,
                "csv_series_displayed": sum(int(row["displayed_unique"]) for row in csv_rows(base, token, "/v1/reports/timeseries", name)),
                "csv_health_receipts": sum(int(row["receipts"]) for row in csv_rows(base, token, "/v1/reports/versions", name)),
            })
            driver.find_element(By.ID, "all-campaigns").click()
            wait("the campaign filter to clear", lambda: not driver.find_element(By.ID, "filter-note").is_displayed())
        make_an_alert_fire(base, token, admin_token)
        driver.find_element(By.CSS_SELECTOR, "#filters button[type=submit]").click()
        wait("the alerts banner", lambda: driver.find_element(By.ID, "alerts-banner").is_displayed())
        alerts = {
            "banner_before": banner_before,
            "title": driver.find_element(By.ID, "alerts-title").text,
            "items": [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#alerts-list li")],
            "since": [item.get_attribute("datetime") for item in driver.find_elements(By.CSS_SELECTOR, "#alerts-list time")],
        }
    finally:
        driver.quit()
    print(json.dumps({"campaigns": results, "alerts": alerts}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:])

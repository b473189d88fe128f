"""Drives the dashboard in Chromium as a person would to compare a campaign's platforms: signs in through its
form with a token, then for each campaign named clicks it in the campaigns table and reads its drill-down's
"By platform" section: whether it shows, its column headers and its rows, as shown.
Prints one JSON object: {"campaigns": {NAME: {"shown": bool, "columns": [...], "rows": [...]}}, "errors": [...]}.

Usage: platform_clicks.py BASE_URL TOKEN CAMPAIGN ...
       (run by DashboardPlatformTests; needs chromium-driver, selenium)
"""
import json
import sys

from selenium.webdriver.common.by import By

from browser_support import chromium, sign_in, table, wait


def visit(driver, name):
    wait(f"a link for {name}", lambda: driver.find_element(By.LINK_TEXT, name)).click()
    wait(f"the drill-down of {name}", lambda: driver.find_element(By.ID, "detail-title").text == f"Campaign {name}")
    wait("the page to load", lambda: driver.find_element(By.TAG_NAME, "body").get_attribute("data-loaded") == "true")
    shown = driver.find_element(By.ID, "platforms").is_displayed()
    columns = [cell.text.rstrip(" ▲▼") for cell in driver.find_elements(By.CSS_SELECTOR, "#platforms-table thead th")]
    return {"shown": shown, "columns": columns if shown else [], "rows": table(driver, "platforms-table") if shown else []}


def main(base, token, names):
    driver = chromium()
    seen = {}
    try:
        sign_in(driver, base, token)
        for name in names:
            seen[name] = visit(driver, name)
        errors = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    finally:
        driver.quit()
    print(json.dumps({"campaigns": seen, "errors": errors}, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:])

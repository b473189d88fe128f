"""Drives the dashboard in Chromium as a person would to read FCM's delivery figures: signs in through its form
with a token, switches the campaigns table to its Delivery columns and reads every campaign's row, as shown.
Prints one JSON object: {"columns": [...], "rows": [{column: cell, ...}, ...]}.

Usage: fcm_clicks.py BASE_URL TOKEN
       (run by DashboardFCMTests; needs chromium-driver, selenium)
"""
import json
import sys

from selenium.webdriver.common.by import By

from browser_support import chromium, show_group, sign_in, table, wait


def main(base, token):
    driver = chromium()
    try:
        sign_in(driver, base, token)
        show_group(driver, "delivery")
        wait("the FCM columns", lambda: any(
            cell.text.startswith("Delivered (FCM)") for cell in driver.find_elements(By.CSS_SELECTOR, "#campaigns-table thead th")))
        columns = [cell.text.replace(" ▲", "").replace(" ▼", "")
                   for cell in driver.find_elements(By.CSS_SELECTOR, "#campaigns-table thead th")]
        rows = table(driver, "campaigns-table")
        errors = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    finally:
        driver.quit()
    print(json.dumps({"columns": columns, "rows": rows, "errors": errors}, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

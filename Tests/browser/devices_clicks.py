"""Drives the dashboard in Chromium as a person would to read which devices never show pushes: signs in through its
form with a token and reads the Dark devices card (the dark share, the devices sent to, the split by state).
Prints one JSON object: {"card": {...}}.

Usage: devices_clicks.py BASE_URL TOKEN
       (run by DashboardDevicesTests; needs chromium-driver, selenium)
"""
import json
import sys

from selenium.webdriver.common.by import By

from browser_support import chromium, sign_in, table, wait


def main(base, token):
    driver = chromium()
    try:
        sign_in(driver, base, token)
        wait("the devices table", lambda: table(driver, "devices-table"))
        card = {
            "dark_rate": driver.find_element(By.ID, "devices-dark-rate").text,
            "sent_to": driver.find_element(By.ID, "devices-sent-to").text,
            "rows": table(driver, "devices-table"),
            "empty_shown": driver.find_element(By.ID, "devices-empty").is_displayed(),
        }
    finally:
        driver.quit()
    print(json.dumps({"card": card}, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

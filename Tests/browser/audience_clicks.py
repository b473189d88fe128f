"""Drives the dashboard in Chromium as a person would to read who can see a push: signs in through its form
with a token, reads the Audience card (opt-in rate, devices, the split by setting), then types a date range
with nothing in it, applies it and reads the card again. Prints one JSON object: {"card": {...}, "empty_range": {...}}.

Usage: audience_clicks.py BASE_URL TOKEN
       (run by DashboardAudienceTests; needs chromium-driver, selenium)
"""
import json
import sys

from selenium.webdriver.common.by import By

from browser_support import apply_day_range, chromium, sign_in, table, wait


def card(driver):
    return {
        "opt_in": driver.find_element(By.ID, "audience-opt-in").text,
        "devices": driver.find_element(By.ID, "audience-devices").text,
        "rows": table(driver, "audience-table"),
        "empty_shown": driver.find_element(By.ID, "audience-empty").is_displayed(),
    }


def main(base, token):
    driver = chromium()
    try:
        sign_in(driver, base, token)
        wait("the audience table", lambda: table(driver, "audience-table"))
        seen = card(driver)
        apply_day_range(driver)
        wait("the empty audience state", lambda: driver.find_element(By.ID, "audience-empty").is_displayed())
        empty_range = card(driver)
    finally:
        driver.quit()
    print(json.dumps({"card": seen, "empty_range": empty_range}, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

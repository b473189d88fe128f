"""Drives the dashboard in Chromium as a person would to read what pushes caused: signs in through its form
with a token, reads the Attribution panel and the campaign's row in the campaigns table, sorts that table by
conversion value both ways (reading the campaigns' order), clicks the campaign
and reads its drill-down (outcomes chart, conversion value, its pushes), then types a date range with nothing
in it, applies it and reads the panel again. Prints one JSON object:
{"panel": {...}, "campaign_row": {...}, "by_value": [[...], [...]], "detail": {...}, "empty_range": {...}}.

Usage: attribution_clicks.py BASE_URL TOKEN CAMPAIGN
       (run by DashboardAttributionTests; needs chromium-driver, selenium)
"""
import json
import sys

from selenium.webdriver.common.by import By

from browser_support import apply_day_range, campaign_row, chromium, show_group, sign_in, table, wait


def panel(driver):
    return {
        "rows": table(driver, "attribution-table"),
        "value": driver.find_element(By.ID, "attribution-value").text,
        "unattributed_value": driver.find_element(By.ID, "attribution-unattributed-value").text,
        "empty_shown": driver.find_element(By.ID, "attribution-empty").is_displayed(),
    }


def main(base, token, campaign):
    driver = chromium()
    try:
        sign_in(driver, base, token)
        wait("the attribution table", lambda: table(driver, "attribution-table"))
        seen = panel(driver)
        row = campaign_row(driver, campaign)
        by_value = []
        show_group(driver, "outcomes")
        for _ in range(2):
            driver.find_element(By.XPATH, "//table[@id='campaigns-table']//th/button[text()='Conversion value']").click()
            by_value.append([row["Campaign"] for row in table(driver, "campaigns-table")])

        wait(f"a link for {campaign}", lambda: driver.find_element(By.LINK_TEXT, campaign)).click()
        wait("the drill-down", lambda: driver.find_element(By.ID, "detail-title").text == f"Campaign {campaign}")
        outcomes = wait("the outcomes chart", lambda: [
            text.get_attribute("textContent") for text in driver.find_elements(By.CSS_SELECTOR, "#outcomes-chart text")])
        detail = {
            # Label and figure alternate: ["Direct opens", "1", "Infl. opens", "1 (50.0%)", ...].
            "outcomes": dict(zip(outcomes[0::2], outcomes[1::2])),
            "value": driver.find_element(By.ID, "outcomes-value").text,
            "pushes": table(driver, "pushes-table"),
        }

        # A range long before anything was sent: typed as a person types a date, then applied.
        apply_day_range(driver)
        wait("the empty attribution state", lambda: driver.find_element(By.ID, "attribution-empty").is_displayed())
        empty_range = panel(driver)
    finally:
        driver.quit()
    print(json.dumps({"panel": seen, "campaign_row": row, "by_value": by_value, "detail": detail, "empty_range": empty_range}, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3])

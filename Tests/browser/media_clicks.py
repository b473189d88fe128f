"""Drives the dashboard in Chromium as a person would to read a campaign's rich media: signs in through its
form with a token, reads the campaign's row in the campaigns table, clicks the campaign and reads its funnel
and its pushes, then reads the receipt health table. Prints one JSON object:
{"campaign_row": {...}, "funnel": {...}, "pushes": [...], "health": [...]}.

Usage: media_clicks.py BASE_URL TOKEN CAMPAIGN
       (run by DashboardMediaTests; needs chromium-driver, selenium)
"""
import json
import sys

from selenium.webdriver.common.by import By

from browser_support import campaign_row, chromium, sign_in, table, wait


def main(base, token, campaign):
    driver = chromium()
    try:
        sign_in(driver, base, token)
        wait("the campaigns table", lambda: table(driver, "campaigns-table"))
        row = campaign_row(driver, campaign)
        health = wait("the receipt health table", lambda: table(driver, "versions-table"))
        wait(f"a link for {campaign}", lambda: driver.find_element(By.LINK_TEXT, campaign)).click()
        wait("the drill-down", lambda: driver.find_element(By.ID, "detail-title").text == f"Campaign {campaign}")
        funnel = wait("the funnel chart", lambda: [
            text.get_attribute("textContent") for text in driver.find_elements(By.CSS_SELECTOR, "#funnel-chart text")])
        pushes = wait("the campaign's pushes", lambda: table(driver, "pushes-table"))
    finally:
        driver.quit()
    # Label and figure alternate in the chart: ["Sent (APNs)", "12", "Displayed", "11 (91.7%)", ...].
    print(json.dumps({"campaign_row": row, "funnel": dict(zip(funnel[0::2], funnel[1::2])), "pushes": pushes,
                      "health": health}, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3])

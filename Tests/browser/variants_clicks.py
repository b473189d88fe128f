"""Drives the dashboard in Chromium as a person would to compare a campaign's A/B variants: signs in through
its form with a token, then for each campaign named clicks it in the campaigns table and reads its drill-down:
whether the Variants section shows, its table, the control menu and the cells in bold (p under 0.05), then
picks each control named after the campaign in the menu and reads the table again; and the pushes table.
Prints one JSON object: {"campaigns": {NAME: {"row": {...}, "shown": bool, "views": [...], "pushes": [...]}}}.

Usage: variants_clicks.py BASE_URL TOKEN CAMPAIGN[=CONTROL,CONTROL...] ...
       (run by DashboardVariantsTests; needs chromium-driver, selenium)
"""
import json
import sys

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from browser_support import campaign_row, chromium, sign_in, table, wait


def loaded(driver):
    return driver.find_element(By.TAG_NAME, "body").get_attribute("data-loaded") == "true" \
        and driver.find_element(By.ID, "variants").get_attribute("aria-busy") is None


def variants(driver):
    menu = Select(driver.find_element(By.ID, "variant-control"))
    return {
        "rows": table(driver, "variants-table"),
        "options": [option.text for option in menu.options],
        "selected": menu.first_selected_option.text if menu.options else None,
        "bold": [cell.text for cell in driver.find_elements(By.CSS_SELECTOR, "#variants-table tbody strong")],
    }


def visit(driver, name, controls):
    wait(f"a link for {name}", lambda: driver.find_element(By.LINK_TEXT, name)).click()
    wait(f"the drill-down of {name}", lambda: driver.find_element(By.ID, "detail-title").text == f"Campaign {name}")
    wait("the page to load", lambda: loaded(driver))
    row = campaign_row(driver, name)
    shown = driver.find_element(By.ID, "variants").is_displayed()
    views = [variants(driver)] if shown else []
    for control in controls if shown else []:
        Select(driver.find_element(By.ID, "variant-control")).select_by_value(control)
        wait(f"{control} as the control", lambda: loaded(driver) and any(
            row.get("Variant") == f"{control} (control)" for row in table(driver, "variants-table")))
        views.append(variants(driver))
    return {"row": row, "shown": shown, "views": views, "pushes": table(driver, "pushes-table")}


def main(base, token, specs):
    driver = chromium()
    seen = {}
    try:
        sign_in(driver, base, token)
        for spec in specs:
            name, _, controls = spec.partition("=")
            seen[name] = visit(driver, name, [control for control in controls.split(",") if control])
    finally:
        driver.quit()
    print(json.dumps({"campaigns": seen}, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:])

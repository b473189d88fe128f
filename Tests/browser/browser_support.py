"""What every dashboard click script needs: a headless Chromium, waiting for the page, signing in through the
form as a person does, and reading a table as {header: cell} rows. Imported by the *_clicks.py scripts (their
folder is on Python's path when they run)."""
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


def chromium(width=1280, height=1600):
    """A fresh browser (no storage, no token) whose console messages get_log("browser") returns."""
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={width},{height}", "--lang=en-US"]:
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def wait(what, check, seconds=15):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            value = check()
            if value:
                return value
        except Exception:  # the page is still drawing
            pass
        time.sleep(0.1)
    raise TimeoutError(f"timed out waiting for {what}")


def sign_in(driver, base, token):
    """Opens the dashboard, types the token into its form and waits until the page has loaded."""
    driver.get(base + "/dashboard/")
    wait("the sign-in form", lambda: driver.find_element(By.ID, "token")).send_keys(token)
    driver.find_element(By.CSS_SELECTOR, "#sign-in-form button[type=submit]").click()
    wait("the page to load", lambda: driver.find_element(By.TAG_NAME, "body").get_attribute("data-loaded") == "true")


def apply_day_range(driver, typed="01022020", shown="2020-01-02"):
    """Types one day into both date fields as a person types a date (month, day, year), then applies them."""
    for field in ("from", "to"):
        element = driver.find_element(By.ID, field)
        element.send_keys(typed)
        wait(f"the {field} date", lambda: element.get_attribute("value") == shown)
    driver.find_element(By.CSS_SELECTOR, "#filters button[type=submit]").click()


def table(driver, table_id):
    """The table's rows as {header: cell}, headers without the sort arrows."""
    headers = [cell.text.rstrip(" ▲▼") for cell in driver.find_elements(By.CSS_SELECTOR, f"#{table_id} thead th")]
    return [
        dict(zip(headers, [cell.text for cell in row.find_elements(By.CSS_SELECTOR, "th, td")]))
        for row in driver.find_elements(By.CSS_SELECTOR, f"#{table_id} tbody tr")]


GROUPS = ("delivery", "engagement", "outcomes")


def show_group(driver, group):
    """Switches the campaigns table to a group of columns, as a person clicks its radio button."""
    driver.find_element(By.CSS_SELECTOR, f"#column-groups input[value={group}]").click()
    wait(f"the {group} columns", lambda: driver.find_element(By.CSS_SELECTOR, f"#column-groups input[value={group}]").is_selected())


def campaign_row(driver, name):
    """A campaign's row with every column of every group, read one group at a time; back on the first group."""
    row = {}
    for group in GROUPS:
        show_group(driver, group)
        row.update(next((row for row in table(driver, "campaigns-table") if row.get("Campaign") == name), {}))
    show_group(driver, GROUPS[0])
    return row or None

"""The lab page in headless Chromium at a phone's size (360 × 740, touch): no horizontal scroll,
44 px targets, every chart drawn at the screen's width. `--update-goldens` writes the README's
pictures: docs/lab.png (the page on a phone) and docs/report.png (the PDF report's first page)."""

from __future__ import annotations

from lab_support import maphr_two_versions
from test_web_browser_log import TARGETS, phone  # noqa: F401  (the phone fixture)

from browser_support import BROWSER_TEST, ServerThread
from conftest import ROOT, run_cli
from waiting import tap

pytestmark = BROWSER_TEST

LAB_TARGETS = TARGETS.replace("a.button';", "a.button, details > summary';")


def test_the_lab_page_on_a_phone_and_the_report(tmp_path, phone, update_goldens):  # noqa: F811
    from PIL import Image
    from selenium.webdriver.common.by import By

    from cardforge.web.app import Settings

    log = maphr_two_versions(tmp_path)
    with ServerThread(Settings(db_path=log["db"], data_root=log["data"])) as s:
        phone.get(s.url + "/g/maphr/lab")
        assert phone.execute_script("return document.documentElement.scrollWidth") <= 360
        assert phone.execute_script(LAB_TARGETS) == []
        charts = phone.find_elements(By.CSS_SELECTOR, "svg.chart.phone")  # a phone's; the wide ones hidden
        assert len(charts) >= 12
        assert not any(c.is_displayed() for c in phone.find_elements(By.CSS_SELECTOR, "svg.chart.wide"))
        for chart in charts:
            assert 300 <= chart.size["width"] <= 340 and chart.size["height"] > 80
        compare = phone.find_element(By.ID, "chart-compare-choice-clan")
        assert "Pic-Ardent · v0.3" in compare.text and "100 % · 3 of 3" in compare.text
        phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                              {"width": 360, "height": 1900, "deviceScaleFactor": 1, "mobile": True})
        shot = tmp_path / "lab.png"
        phone.save_screenshot(str(shot))  # as a visitor first sees it
        tap(phone, phone.find_element(By.CSS_SELECTOR, "details.lab-options > summary"))
        assert phone.find_element(By.ID, "lab-pdf").is_displayed()
        with Image.open(shot) as im:
            assert im.size == (360, 1900)
            if update_goldens:  # the README's screenshot: the lab page on a phone
                im.convert("RGB").quantize(64).save(ROOT / "docs" / "lab.png", optimize=True)
    out = tmp_path / "report.pdf"
    assert run_cli("--data", log["data"], "report", "maphr", "--db", log["db"], "-o", out).code == 0
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(out))
    try:
        assert len(pdf) >= 5
        image = pdf[0].render(scale=100 / 72).to_pil()  # 100 dpi
    finally:
        pdf.close()
    assert abs(image.size[0] - 827) <= 1 and abs(image.size[1] - 1169) <= 1  # A4
    if update_goldens:
        image.convert("RGB").quantize(64).save(ROOT / "docs" / "report.png", optimize=True)

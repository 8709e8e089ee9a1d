"""The add-on: one line in ADDONS switches corpusbot on; the project's own settings still win."""

from __future__ import annotations

import logging
import subprocess
import sys

from scrapy.settings import Settings
from scrapy.utils.misc import build_from_crawler, load_object
from scrapy.utils.test import get_crawler

from corpusbot.crawl.addon import COMPONENTS, Addon
from corpusbot.crawl.default_settings import POLITENESS, defaults

CONTACT = "crawl-ops@example.org"


def _settings(**project: object) -> Settings:
    crawler = get_crawler(settings_dict={"ADDONS": {Addon: 0}, **project})
    return crawler.settings


def _enabled(settings: Settings, name: str) -> dict[type, int | None]:
    # The component list Scrapy builds: the _BASE setting, then the project's;
    # None switches a component off.
    merged = dict(settings.getwithbase(name))
    return {load_object(path) if isinstance(path, str) else path: order
            for path, order in merged.items() if order is not None}


def test_the_add_on_enables_every_component():
    settings = _settings(CORPUSBOT_CONTACT=CONTACT)
    for name, components in COMPONENTS.items():
        enabled = _enabled(settings, name)
        for path, order in components.items():
            assert enabled[load_object(path)] == order


def test_defaults_and_politeness_are_set_at_the_addon_priority():
    settings = _settings(CORPUSBOT_CONTACT=CONTACT)
    for name, value in {**defaults(), **POLITENESS}.items():
        if name == "CORPUSBOT_CONTACT":
            continue
        assert settings[name] == value, name
        assert settings.getpriority(name) == 15, name
    assert settings["USER_AGENT"].startswith("corpusbot/")
    assert CONTACT in settings["USER_AGENT"]
    assert settings.getbool("ROBOTSTXT_OBEY") and settings.getbool("AUTOTHROTTLE_ENABLED")


def test_the_project_settings_override_the_add_on():
    settings = _settings(
        CORPUSBOT_CONTACT=CONTACT, ROBOTSTXT_OBEY=False, CORPUSBOT_SPIDER_DEPTH=2,
        USER_AGENT="my-bot/1.0", DOWNLOAD_DELAY=3.0,
        ITEM_PIPELINES={"corpusbot.pipelines.corpus.CorpusPipeline": None},
    )
    assert settings.getbool("ROBOTSTXT_OBEY") is False
    assert settings.getint("CORPUSBOT_SPIDER_DEPTH") == 2
    assert settings["USER_AGENT"] == "my-bot/1.0"
    assert settings.getfloat("DOWNLOAD_DELAY") == 3.0
    # None switches a component off: the add-on leaves it so.
    assert settings.getdict("ITEM_PIPELINES")["corpusbot.pipelines.corpus.CorpusPipeline"] is None
    pipelines = _enabled(settings, "ITEM_PIPELINES")
    assert list(pipelines.values()) == [300]


def test_a_missing_contact_is_asked_for(caplog):
    with caplog.at_level(logging.WARNING, logger="corpusbot.crawl.addon"):
        settings = _settings()
    assert "CORPUSBOT_CONTACT" in caplog.text
    assert settings["USER_AGENT"] == "corpusbot/0.1.0 (text corpus crawler)"


def test_a_misspelt_setting_is_named_with_the_closest_one(caplog):
    with caplog.at_level(logging.WARNING, logger="corpusbot.crawl.addon"):
        _settings(CORPUSBOT_CONTCT=CONTACT, CORPUSBOT_SPIDER_DEPHT=2, CORPUSBOT_QWERTY=1,
                  CORPUSBOT_SPIDER_DEPTH=3)
    assert "CORPUSBOT_CONTCT is no corpusbot setting and has no effect; did you mean " \
        "CORPUSBOT_CONTACT?" in caplog.text
    assert "CORPUSBOT_SPIDER_DEPHT is no corpusbot setting and has no effect; did you mean " \
        "CORPUSBOT_SPIDER_DEPTH?" in caplog.text
    assert "CORPUSBOT_QWERTY is no corpusbot setting and has no effect\n" in caplog.text + "\n"
    assert "CORPUSBOT_SPIDER_DEPTH is no" not in caplog.text


def test_the_news_spider_joins_the_project_spiders():
    settings = Settings({"SPIDER_MODULES": ["myproject.spiders"], "ADDONS": {Addon: 0}})
    Addon.update_pre_crawler_settings(settings)
    assert settings.getlist("SPIDER_MODULES") == ["myproject.spiders", "corpusbot.spiders"]


def test_an_existing_scrapy_project_gets_the_news_spider(tmp_path):
    (tmp_path / "scrapy.cfg").write_text("[settings]\ndefault = otherproject.settings\n")
    package = tmp_path / "otherproject"
    (package / "spiders").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "spiders" / "__init__.py").write_text("")
    (package / "settings.py").write_text(
        'BOT_NAME = "otherproject"\nSPIDER_MODULES = ["otherproject.spiders"]\n'
        'ADDONS = {"corpusbot.crawl.addon.Addon": 0}\n')
    # What ``scrapy crawl news`` does there (``scrapy list`` skips add-ons).
    script = ("from scrapy.crawler import CrawlerProcess\n"
              "from scrapy.utils.project import get_project_settings\n"
              "print(CrawlerProcess(get_project_settings()).spider_loader.list())\n")
    listed = subprocess.run([sys.executable, "-c", script], cwd=tmp_path,
                            capture_output=True, text=True, timeout=60, check=False)
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.strip() == "['news']"


def test_the_components_work_without_the_add_on(tmp_path):
    crawler = get_crawler(settings_dict={"CORPUSBOT_OUTPUT_DIR": str(tmp_path),
                                         "JOBDIR": str(tmp_path / "job")})
    built = {path: build_from_crawler(load_object(path), crawler)
             for components in COMPONENTS.values() for path in components}
    assert built["corpusbot.pipelines.process.ProcessPipeline"].workers >= 1
    warc = built["corpusbot.crawl.warcmiddleware.WarcMiddleware"]
    assert warc.writer.directory == tmp_path / "archive"
    warc.spider_closed()
    built["corpusbot.crawl.incremental.IncrementalMiddleware"].store.close()
    built["corpusbot.pipelines.corpus.CorpusPipeline"].close_spider()
    assert (tmp_path / "crawl-seen.sqlite").is_file()
    built["corpusbot.crawl.jobstate.UncleanStop"].spider_closed()
    assert not list((tmp_path / "job").iterdir())

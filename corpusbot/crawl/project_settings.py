"""Scrapy project settings of this repository (``scrapy.cfg`` points here).

Everything corpusbot-specific comes from the add-on, exactly as it would in
any other Scrapy project; ``scrapy crawl news -a start_urls=...`` from the
repository root and ``corpusbot crawl`` both load this module.
"""

BOT_NAME = "corpusbot"

SPIDER_MODULES = ["corpusbot.spiders"]
NEWSPIDER_MODULE = "corpusbot.spiders"

ADDONS = {"corpusbot.crawl.addon.Addon": 0}

# News pages do not need a session; cookies would only make pages vary.
COOKIES_ENABLED = False
# The telnet console and the remote control open ports nobody here uses.
TELNETCONSOLE_ENABLED = False
REMOTE_CONTROL_ENABLED = False
LOG_LEVEL = "INFO"
FEED_EXPORT_ENCODING = "utf-8"

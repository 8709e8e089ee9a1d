"""The Scrapy add-on: ``ADDONS = {"corpusbot.crawl.addon.Addon": 0}`` switches corpusbot on.

It enables the item pipelines (processing in worker processes, the corpus
writer), WARC archiving, incremental crawling and progress reporting, and
sets every ``CORPUSBOT_*`` default and the politeness defaults
(``corpusbot.crawl.default_settings``) at the ``addon`` priority: whatever the
project's ``settings.py``, a spider or ``-s`` says wins. It also makes the
``news`` spider available in the project.
"""

from __future__ import annotations

import logging

from scrapy.settings import BaseSettings, Settings
from scrapy.utils.misc import load_object

from corpusbot import __version__
from corpusbot.crawl.default_settings import POLITENESS, defaults, misspelt, user_agent
from corpusbot.redis_keys import CrawlKeys

logger = logging.getLogger(__name__)

COMPONENTS: dict[str, dict[str, int]] = {
    "ITEM_PIPELINES": {
        "corpusbot.pipelines.process.ProcessPipeline": 300,
        "corpusbot.pipelines.corpus.CorpusPipeline": 800,
    },
    # Last on the way out, first on the way back: the request as sent (user
    # agent, accepted encodings) and the response as received (still
    # compressed, before redirects and retries act on it).
    # The network guard sits closer still to the network: the last to see a
    # request (after redirects made it), the first to see a response (so a
    # refused one is never archived).
    # Fetch outcomes sit farthest from the network: a request's failure reaches them after
    # the retries (550) gave up.
    "DOWNLOADER_MIDDLEWARES": {"corpusbot.crawl.warcmiddleware.WarcMiddleware": 950,
                               "corpusbot.crawl.netguard.NetGuardMiddleware": 960,
                               "corpusbot.crawl.outcomes.FetchOutcomes": 40},
    "SPIDER_MIDDLEWARES": {"corpusbot.crawl.incremental.IncrementalMiddleware": 600},
    # Before any other extension: a killed run's resume state goes before anything reads it.
    "EXTENSIONS": {"corpusbot.crawl.jobstate.UncleanStop": 0,
                   "corpusbot.crawl.progress.CrawlProgress": 500},
}

THROTTLE: dict[str, int | None] = {"scrapy.extensions.throttle.AutoThrottle": None,
                                   "corpusbot.crawl.throttle.SiteFloorThrottle": 0}


class Addon:
    """Enable corpusbot's components with their defaults, overridable by the project."""

    @classmethod
    def update_pre_crawler_settings(cls, settings: BaseSettings) -> None:
        """Make ``scrapy crawl news`` work in any project that enables the add-on."""
        settings.add_to_list("SPIDER_MODULES", "corpusbot.spiders")

    def update_settings(self, settings: Settings) -> None:
        for warning in misspelt(settings):  # before the defaults join the names
            logger.warning("%s", warning)
        for name, value in {**defaults(), **POLITENESS}.items():
            settings.set(name, value, priority="addon")
        settings.set("LOG_FORMATTER", "corpusbot.crawl.logformatter.ShortItems", priority="addon")
        contact = settings.get("CORPUSBOT_CONTACT")
        settings.set("USER_AGENT", user_agent(__version__, contact), priority="addon")
        if not contact:
            logger.warning(
                "CORPUSBOT_CONTACT is not set: set it to an e-mail address or URL so that "
                "site owners can reach you (it goes into the User-Agent)"
            )
        for setting, components in COMPONENTS.items():
            for path, order in components.items():
                settings.setdefault_in_component_priority_dict(setting, load_object(path), order)
        # AutoThrottle that keeps each site's own delay as a floor, in AutoThrottle's place
        for path, order in THROTTLE.items():
            settings.setdefault_in_component_priority_dict("EXTENSIONS", load_object(path), order)
        if settings.get("CORPUSBOT_REDIS_URL"):
            _share_through_redis(settings)


SHARED_COMPONENTS: dict[str, dict[str, int]] = {
    # The last to see a request before the network: the site's lease starts when nothing
    # else will hold the request back (robots.txt still to fetch, a name to resolve).
    "DOWNLOADER_MIDDLEWARES": {"corpusbot.crawl.redis_frontier.SharedPoliteness": 990},
    "SPIDER_MIDDLEWARES": {"corpusbot.crawl.redis_frontier.StartOnce": 10},
    "EXTENSIONS": {"corpusbot.crawl.redis_frontier.SharedIdle": 500},
}


def _share_through_redis(settings: Settings) -> None:
    """scrapy-redis's scheduler with corpusbot's hand-over (``redis_handover``), and the
    shared components (``redis_frontier``)."""
    keys = CrawlKeys(settings.get("CORPUSBOT_REDIS_CRAWL"))
    for name, value in {
        "SCHEDULER": "corpusbot.crawl.redis_handover.HandOverScheduler",
        "SCHEDULER_QUEUE_CLASS": "corpusbot.crawl.redis_handover.HandOverQueue",
        "SCHEDULER_PERSIST": True,
        "DUPEFILTER_CLASS": "corpusbot.crawl.redis_frontier.CompactDupeFilter",
        "REDIS_URL": settings.get("CORPUSBOT_REDIS_URL"),
        "SCHEDULER_QUEUE_KEY": keys.requests(), "SCHEDULER_DUPEFILTER_KEY": keys.fingerprints(),
    }.items():
        settings.set(name, value, priority="addon")
    for setting, components in SHARED_COMPONENTS.items():
        for path, order in components.items():
            settings.setdefault_in_component_priority_dict(setting, load_object(path), order)

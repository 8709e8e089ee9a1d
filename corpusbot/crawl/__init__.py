"""crawl"""

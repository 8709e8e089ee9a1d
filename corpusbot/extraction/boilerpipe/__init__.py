"""Boilerpipe: the shallow-text features and classifiers, and the ArticleExtractor."""

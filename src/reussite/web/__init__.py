"""The web site: the application (``app.create_app``), its API and pages, storage, languages.

Layout: ``app`` (factory, error handling), ``edge`` (player cookie, cross-site refusal, body
limit, security headers), ``api`` and ``pages`` (routes), ``play`` (games as actions on the
engine's positions), ``storage`` (tables and transactions; ``migrations/`` for Alembic),
``stats``, ``i18n`` (``locale/`` catalogues), ``templates/``, ``texts/`` (rules in three
languages), ``static/`` (the browser client).
"""

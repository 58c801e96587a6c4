"""Play MEIO online: a FastAPI server with WebSockets, a browser client, and
persistence in a real database (SQLite by default, PostgreSQL by ``DATABASE_URL``).

>>> from meio.web import Settings, create_app
>>> app = create_app(Settings(database_url="sqlite://"))
"""

from meio.web.app import create_app
from meio.web.settings import Settings

__all__ = ["Settings", "create_app"]

"""The class server: one process that referees a class's tables and keeps its records.

A learner's kernel never holds another seat's cards: the server owns every table's ``Game`` and an
append-only log of its actions (the log is the truth; the games are replayed from it on start), and
sends each seat only that seat's view (rule I1). It also records the class's exercise checks for
the teacher's progress page. It is a tornado application (tornado ships with Jupyter) over SQLite
in WAL mode (the standard library), the server the only writer; for a school, over PostgreSQL
(``--db postgresql://...``), which several servers may share, and as a JupyterHub service
(``--hub``), where the Hub's users and groups replace the teacher's token.

- ``python -m ttrlib.server --port 8867 --data classroom-data`` (``make classroom`` starts it beside
  the lessons and prints the teacher's login link);
- ``ttrlib.server.auth``: the teacher's token and the class secret (files in the data folder);
- ``ttrlib.server.db``: the store (SQLite, or PostgreSQL with LISTEN/NOTIFY), each module
  migrating its own tables;
- ``ttrlib.server.hub``: the server as a JupyterHub service (HubOAuth, the teachers' scope);
- ``ttrlib.server.app``: the tornado application made of each module's routes;
- ``ttrlib.server.tables``: the class's tables (``table_store``: games and their logs, seats'
  keys, bots; ``table_api``: the JSON API; ``table_pages`` and ``board_page``: the board a
  teacher projects and the teacher's page of tables; ``reviews`` and ``review_api``: the coach's
  review of a finished table, computed in a worker process, for the teacher and the board);
- ``ttrlib.server.records``, ``.progress``, ``.progress_page``: the class's exercise records, the
  kernels' reports, the progress API and the teacher's live page;
- ``ttrlib.server.materials``: the teacher's guide, the solutions and the handouts.
"""

# The classroom server's settings. Voila 0.5 reads this file because `make classroom` runs
#   cd notebooks && voila . --Voila.config_file_paths=<this folder>
# (tests/lab_harness.py's classroom_command, used by the tests and benchmarks/bench_classroom.py,
# is the same command). Options on the command line win over this file, e.g.
#   make classroom VOILA_ARGS=--MappingKernelManager.cull_idle_timeout=30
#
# Two variables of the environment size the class (the Makefile passes them):
#   TTR_CLASS_LESSON  the lesson the class opens together, e.g. 01-card-splits.ipynb
#   TTR_CLASS_SIZE    how many learners open it (that many kernels are started ahead of time)
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # the two small classes below live beside this file
c = get_config()  # noqa: F821 - traitlets defines get_config in config files

# --- the page: a template of our own, nothing fetched from outside the machine ---------------
# Voila looks for a template <name> in <each Jupyter data dir>/{voila,nbconvert}/templates/<name>;
# this folder is put first on JUPYTER_PATH so that nbconvert/templates/classroom (the lab
# template without its CDN links to Font Awesome, see its index.html.j2) is found. (Not under
# voila/: a voila/ folder here would hide Voila's own data folder and its themes.) The server's
# kernels inherit the variable, which adds nothing else: no kernels or extensions live here.
os.environ["JUPYTER_PATH"] = os.pathsep.join(
    [HERE, *filter(None, os.environ.get("JUPYTER_PATH", "").split(os.pathsep))])
c.VoilaConfiguration.template = "classroom"
# `?template=lab` in a URL would bring the CDN links back (and skip the preheated kernels).
c.VoilaConfiguration.allow_template_override = "NO"
# The list of lessons is drawn on the server (nbconvert/templates/classroom/tree.html), not by
# a script in the browser: a busy server then still shows it at once.
c.VoilaConfiguration.classic_tree = True
# The page loads only the front-end extensions a lesson needs: no JupyterLab preview button,
# no code-highlighting styles (the code is hidden). Less to fetch and run in each browser.
c.VoilaConfiguration.extension_denylist = ["@voila-dashboards/jupyterlab-preview",
                                           "jupyterlab_pygments"]
# The learner's id (ttrlib.lessons.learner): the page sets the cookie ttr_learner (see
# nbconvert/templates/classroom/learner_cookie.html.j2) and Voila hands each lesson request's
# Cookie header to its kernel as HTTP_COOKIE, where a learner's saves are filed under it.
c.VoilaConfiguration.http_header_envs = ["Cookie"]
# The kernels know they serve a classroom: without a learner id there, Save refuses rather than
# share one folder among all the learners (a browser that refuses cookies).
os.environ["TTR_CLASSROOM"] = "1"
# A learner never sees a traceback: a failing cell shows the message below instead.
c.VoilaConfiguration.show_tracebacks = False

# --- kernels started ahead of time -------------------------------------------------------------
# A cold lesson takes 4-7 s to start a kernel, import numpy/scipy/sympy/ttrlib and run; 30 of
# them at once on 2 cores take minutes. With preheating Voila keeps, for every notebook it
# serves, a pool of kernels that have already run the notebook (up to the first cell that calls
# voila.utils.get_query_string(), which waits there for the learner's request and returns its
# query string, e.g. "seed=7"). Opening a lesson then only sends the rendered page. Preheated
# kernels do not get the query string in their environment at start: lessons must read it with
# get_query_string(). Preheating is incompatible with progressive rendering (Voila refuses to
# start with both) and with a prelaunch hook.
c.VoilaConfiguration.preheat_kernel = True
c.VoilaConfiguration.progressive_rendering = False
# One kernel waits for each lesson, so the first learner on any lesson is served at once.
c.VoilaConfiguration.default_pool_size = 1
pools = {"default": {"pool_size": 1}}
lesson, class_size = os.environ.get("TTR_CLASS_LESSON"), int(os.environ.get("TTR_CLASS_SIZE") or 0)
if lesson and class_size > 0:
    # Per-notebook pool: the lesson of the day has a kernel ready for every learner
    # (about 75-125 MB each). The name is the notebook's path under the served folder.
    pools[lesson] = {"pool_size": class_size}
    # Once the class has its kernels, a few spare ones for late learners and reloads, not a
    # second class's worth (pool_culling.py says why): TTR_CLASS_SPARE, 3 unless set.
    c.ClassroomKernelManager.refill_sizes = {lesson: int(os.environ.get("TTR_CLASS_SPARE") or 3)}
# A class table (lesson 08): its four (or six) learners open their seats' links together. With
# one waiting kernel per lesson, three of the four waited for a kernel to start and run the
# lesson, all at once on the same cores (63-80 s in a class, issue 32). So lesson 08 keeps a
# table's worth of kernels waiting, TTR_TABLE_POOL (`make classroom` passes its TABLE_POOL, 4;
# unset here, as in the tests' servers, one), unless the class's own pool is lesson 08's.
TABLE_LESSON = "08-play-at-a-table.ipynb"
table_pool = int(os.environ.get("TTR_TABLE_POOL") or 1)
if table_pool > 1 and TABLE_LESSON not in pools:
    pools[TABLE_LESSON] = {"pool_size": table_pool}
c.VoilaKernelManager.kernel_pools_config = pools
# A used kernel is replaced after fill_delay seconds. With a class pool, Voila's 1 s default
# would start the replacements in the middle of the rush (30 kernels importing numpy and
# running the lesson while 30 pages load); 60 s lets the rush pass. The price: a learner
# beyond the pool (or a second one on another lesson within that minute) waits up to 60 s
# more. Without a class pool, every learner after the first on a lesson needs a new kernel
# anyway, and Voila's 1 s keeps that wait short.
c.VoilaKernelManager.fill_delay = 60 if lesson and class_size > 0 else 1
# Only the lessons (NN-name.ipynb) get waiting kernels, not other notebooks of the folder
# (answers, teachers' material). Voila matches these patterns against each notebook's absolute
# path: this one matches every path whose file name is not NN-*.ipynb.
c.VoilaKernelManager.preheat_denylist = [r"^(?!.*/[0-9][0-9]-[^/]*\.ipynb$)"]

# --- running the notebook ---------------------------------------------------------------------
# After a cell's reply, nbclient waits iopub_timeout seconds for the cell's last outputs; under
# load the default 4 s passed and Voila rendered lessons without their widget. 60 s is never
# reached by a lesson that works, and if it is, raise_on_iopub_timeout turns the silent loss
# into a cell timeout that Voila shows on the page (with the instruction below) instead of a
# lesson with a piece missing.
c.VoilaExecutor.iopub_timeout = 60
c.VoilaExecutor.raise_on_iopub_timeout = True
# No per-cell time limit (nbclient's `timeout` stays None): a preheated kernel's
# get_query_string() cell waits, by design, until a learner opens the lesson.
c.VoilaExecutor.cell_timeout_instruction = (
    "The classroom server is very busy: reload this page in a minute. "
    "If this message comes back, tell your teacher.")
c.VoilaExecutor.cell_error_instruction = (
    "This part of the lesson could not be shown. Reload the page; "
    "if this message comes back, tell your teacher.")

# --- freeing the kernels of closed tabs ---------------------------------------------------------
# A closing tab posts voila/api/shutdown/<kernel id> with the _xsrf cookie's value; Voila never
# set that cookie, so every shut-down was refused (403). XsrfCookieIdentityProvider sets the
# cookie on each lesson page, and the unchanged XSRF check passes (see xsrf_cookie.py).
# lessons_only.py's provider (a subclass of xsrf_cookie.py's) also answers 404 to any notebook
# or folder but the lessons: learners never reach the solutions, the guide, the handouts or the
# answer keys (issue 20); the folder's listing is trimmed to the lessons by hide_globs.
c.Voila.identity_provider_class = "lessons_only.LessonsOnlyIdentityProvider"
from lessons_only import HIDE, NotALessonHandler, log_request, quiet_logs  # noqa: E402 - beside this file (sys.path above)

# An address nothing serves gets the same "not a lesson" page as a refused one, with its link.
# Every request is logged by path, never with its query string (a seat's key, lesson 08).
c.Voila.tornado_settings = {"default_handler_class": NotALessonHandler,
                            "log_function": log_request}
quiet_logs()

c.ContentsManager.hide_globs = ["__pycache__", "*.pyc", "*~", *HIDE]

# --- the language of the lessons (issue 35) -------------------------------------------------------
# A translated lesson is a path, notebooks/<lang>/NN-name.ipynb (lessons_only.py serves exactly
# those of the languages in notebooks/locale/languages.toml), and its kernel starts in that
# folder, which tells ttrlib.i18n its language. The same hook as above redirects ?lang=ru to the
# Russian copy, remembers the choice in the cookie ttr_lang, and sends the home page to the list
# in the cookie's language (or, on a first visit, Accept-Language's); this hook gives each page
# the choices it offers ("English | Русский", a lesson's sibling), which the templates draw
# (languages.py says how).
from languages import page_config_hook  # noqa: E402 - beside this file (sys.path above)

c.VoilaConfiguration.page_config_hook = page_config_hook
# A kernel waits for a translated lesson only in the class's language (TTR_CLASS_LANG, `make
# classroom CLASS_LANG=ru`) or for the lesson of the day (CLASS_LESSON=ru/01-...): one kernel per
# lesson in every language would double the kernels a server starts and holds (about 100 MB
# each) for a class that reads one language. Another language's learner waits for a kernel.
from lessons_only import LANGUAGES  # noqa: E402 - beside this file (sys.path above)

cold = sorted(set(LANGUAGES) - {os.environ.get("TTR_CLASS_LANG", "")})
if cold:
    spared = rf"(?!.*/{re.escape(lesson)}$)" if lesson else ""
    c.VoilaKernelManager.preheat_denylist.append(
        rf"^{spared}.*/(?:{'|'.join(map(re.escape, cold))})/[0-9][0-9]-[^/]*\.ipynb$")

# --- the server's own work per page -------------------------------------------------------------
# Kernel messages' dates read with datetime.fromisoformat, not dateutil: the one server process
# handles every message of every learner's page (fast_dates.py says how much that saves).
import fast_dates  # noqa: E402 - beside this file (sys.path above)

if os.environ.get("TTR_CLASSROOM_DATEUTIL") != "1":  # 1: the old parser (benchmarks/ A/B runs)
    fast_dates.install()

# A tab that vanished without that request (crash, lost network, laptop lid) is culled: every
# cull_interval s the kernel manager shuts down kernels idle for cull_idle_timeout s with no
# open connection, so such a kernel is gone within 60 + 20 s of its last message. Connected
# kernels (a learner reading) and busy ones are kept (cull_connected/cull_busy False), and
# Voila never culls the preheated kernels waiting in a pool. Voila passes this config to its
# kernel manager, a subclass of MappingKernelManager.
# A kernel handed out of the pool is not culled before its page has connected (for up to
# connect_grace s: on a busy machine a page can take a minute or more to connect), and its idle
# time counts from when it left the pool, not from when it ran the lesson ahead of time (see
# pool_culling.py).
c.VoilaConfiguration.multi_kernel_manager_class = "pool_culling.ClassroomKernelManager"
c.ClassroomKernelManager.connect_grace = 600
c.MappingKernelManager.cull_idle_timeout = 60
c.MappingKernelManager.cull_interval = 20
c.MappingKernelManager.cull_connected = False
c.MappingKernelManager.cull_busy = False

"""Helpers of the web table tests: a room served by uvicorn in a thread, headless Chromium.

`served(room)` runs the real ASGI app on 127.0.0.1 (a free port) and yields its base URL;
`chrome()` starts Debian's chromium through chromedriver with a fresh profile. The browser
helpers click by option id and read the board back from the DOM's data attributes.
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import tempfile
import threading
import time

import uvicorn

from interpreter.game import load
from interpreter.tabletop.web.app import create_app
from interpreter.tabletop.web.room import Room

# Debian's packages (.ci/run installs them), found on PATH
CHROMIUM, CHROMEDRIVER = shutil.which("chromium") or "chromium", shutil.which("chromedriver") or "chromedriver"
CHROME_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]


def make_room(ruleset: str, seats: list[str], seed: int = 1, lang: str = "en", save=None, players=None,
              **kw) -> Room:
    """A room (`kw`: the Room's autopass and hold)."""
    game = load(ruleset)
    st = game.new_game(seed=seed, players=players or len(seats))
    return Room(game, st, seats, seed, lang, save, **kw)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def served(room: Room):
    """Serve the room on 127.0.0.1 in a background thread; yield the base URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(room), host="127.0.0.1", port=port, log_level="warning",
                                           ws_ping_interval=None))
    server.install_signal_handlers = lambda: None  # a thread may not install them (and must not)
    th = threading.Thread(target=server.run, daemon=True)
    th.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not th.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        th.join(timeout=10)


# what sticks out of the page sideways (the board's zoom overlay excepted): its widths and the first 5
OVERFLOW = """
var w = document.documentElement.clientWidth, wide = [];
document.querySelectorAll('body *').forEach(function (e) {
  var r = e.getBoundingClientRect();
  if (r.width && r.right > w + 1 && !e.closest('#zoom'))
    wide.push(e.tagName + '.' + e.className + ' ' + Math.round(r.right));
});
return {inner: window.innerWidth, client: w, scroll: document.documentElement.scrollWidth, wide: wide.slice(0, 5)};
"""


def have_browser() -> bool:
    return bool(shutil.which(CHROMIUM) or shutil.which("chromium")) and bool(
        shutil.which(CHROMEDRIVER) or shutil.which("chromedriver"))


@contextlib.contextmanager
def chrome(width: int = 1400, height: int = 1000):
    """Headless Chromium driven by Selenium, with a fresh profile, closed afterwards."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    profile = tempfile.mkdtemp(prefix="grimoire-web-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = shutil.which(CHROMIUM) or shutil.which("chromium")
    for f in CHROME_FLAGS + [f"--user-data-dir={profile}", f"--window-size={width},{height}"]:
        opts.add_argument(f)
    service = Service(executable_path=shutil.which(CHROMEDRIVER) or shutil.which("chromedriver"))
    drv = webdriver.Chrome(service=service, options=opts)
    try:
        yield drv
    finally:
        drv.quit()
        shutil.rmtree(profile, ignore_errors=True)


def wait_for(drv, cond, timeout: float = 10.0, what: str = "the page"):
    """Wait until cond(drv) is true (polled), or fail saying what did not happen."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            v = cond(drv)
            if v:
                return v
        except Exception:  # the page is being redrawn: try again
            pass
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def version(drv) -> int:
    return int(drv.find_element("tag name", "body").get_attribute("data-version"))

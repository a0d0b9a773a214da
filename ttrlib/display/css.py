"""The one stylesheet of every fragment; all class names start with ``ttr-``."""

from __future__ import annotations

# Note for maintainers: keep this stylesheet free of "<" and "&" so the fragments stay valid XML.
# The keyboard focus (the rule with :focus-visible): JupyterLab's own is a 1 px light-blue line,
# lost on a blue button. Ours is a dark 3 px ring just inside the control's edge, with a white
# ring on the edge itself: one of the two stands out on any button, and drawn inside, a row of
# controls cannot clip it. It is styled on every page that shows a fragment (the rule reaches
# the widgets' own controls).
# On a narrow screen (a phone, or a browser zoomed to 200%) a widget's rows of controls wrap and
# its fixed-width controls shrink to the screen, instead of running off its right edge.
STYLE = """
.ttr-root { font-family: var(--jp-ui-font-family, system-ui, -apple-system, "Segoe UI", Roboto,
  "DejaVu Sans", "Helvetica Neue", Arial, sans-serif); font-size: 13px; line-height: 1.3;
  margin: 2px 0; }
.ttr-inline { display: inline-block; vertical-align: middle; margin: 0 2px; }
.ttr-frame { display: inline-block; border: 1px solid rgba(128,128,128,0.45);
  border-radius: 10px; padding: 6px 10px 8px 10px; background: rgba(128,128,128,0.07);
  max-width: 100%; box-sizing: border-box; }
.ttr-head { display: flex; align-items: center; gap: 8px; font-weight: 600;
  margin-bottom: 6px; flex-wrap: wrap; }
.ttr-sub { font-weight: 400; opacity: 0.75; }
.ttr-pill { display: inline-block; font-size: 11px; font-weight: 600; padding: 0 7px;
  border-radius: 9px; line-height: 17px; letter-spacing: 0.02em; }
.ttr-pill-private { background: rgba(230,150,20,0.22); border: 1px solid rgba(230,150,20,0.7); }
.ttr-pill-shared { background: rgba(20,160,150,0.20); border: 1px solid rgba(20,160,150,0.7); }
.ttr-pill-lock { background: rgba(128,128,128,0.18); border: 1px solid rgba(128,128,128,0.6); }
.ttr-pill-rule { background: rgba(128,128,128,0.16); border: 1px solid rgba(128,128,128,0.55);
  font-family: var(--jp-code-font-family, "DejaVu Sans Mono", monospace); }
.ttr-row { display: flex; flex-wrap: wrap; align-items: flex-end; gap: 10px; }
.ttr-row-stacks { gap: 10px 8px; }
.ttr-item { display: inline-flex; flex-direction: column; align-items: center; gap: 3px; }
.ttr-label { font-size: 11px; opacity: 0.8; text-align: center; max-width: 70px;
  overflow-wrap: anywhere; }
.ttr-empty-text { font-style: italic; opacity: 0.7; padding: 4px 2px; }
.ttr-card { position: relative; display: inline-block; width: 44px; height: 64px;
  border-radius: 6px; box-sizing: border-box; flex: none;
  box-shadow: 0 0 0 1px rgba(128,128,128,0.75), inset 0 0 0 3px rgba(255,255,255,0.22),
  1px 2px 3px rgba(0,0,0,0.28); overflow: hidden; }
.ttr-card-white { box-shadow: 0 0 0 1px #8a8a8a, inset 0 0 0 3px rgba(0,0,0,0.06),
  1px 2px 3px rgba(0,0,0,0.28); }
.ttr-corner { position: absolute; top: 3px; left: 5px; font-size: 10px; font-weight: 700;
  line-height: 1; }
.ttr-letter { position: absolute; left: 0; right: 0; top: 13px; text-align: center;
  font-size: 25px; font-weight: 800; line-height: 1; }
.ttr-disc { position: absolute; left: 8px; top: 10px; width: 28px; height: 28px;
  border-radius: 50%; background: rgba(255,255,255,0.9); box-shadow: 0 0 0 1px rgba(0,0,0,0.35); }
.ttr-disc-letter { top: 12px; font-size: 21px; }
.ttr-wagon { position: absolute; left: 9px; bottom: 6px; }
.ttr-dim { opacity: 0.35; filter: grayscale(0.6); }
.ttr-hl { outline: 3px solid #ffb300; outline-offset: 2px;
  box-shadow: 0 0 0 1px rgba(128,128,128,0.75), 0 0 10px 3px rgba(255,179,0,0.75); }
.ttr-slot { display: inline-flex; align-items: center; justify-content: center; width: 44px;
  height: 64px; border: 2px dashed rgba(128,128,128,0.8); border-radius: 6px;
  box-sizing: border-box; font-size: 10px; opacity: 0.8; font-style: italic; }
.ttr-stack { position: relative; display: inline-block; margin: 8px 8px 0 0; }
.ttr-layer { position: absolute; }
.ttr-badge { position: absolute; right: -8px; top: -8px; min-width: 18px; height: 20px;
  padding: 0 5px; border-radius: 10px; background: #263238; color: #ffffff; font-size: 12px;
  font-weight: 700; line-height: 20px; text-align: center; box-sizing: border-box;
  box-shadow: 0 0 0 2px rgba(255,255,255,0.85); z-index: 2; }
.ttr-back { background-color: #1d3557;
  background-image: repeating-linear-gradient(45deg, rgba(255,255,255,0.13) 0 4px,
  transparent 4px 9px); box-shadow: 0 0 0 1px rgba(128,128,128,0.8),
  inset 0 0 0 3px rgba(255,255,255,0.55), 1px 2px 3px rgba(0,0,0,0.3); }
.ttr-back-mark { position: absolute; left: 0; right: 0; top: 24px; text-align: center;
  color: #ffffff; font-size: 11px; font-weight: 800; letter-spacing: 0.05em; }
.ttr-fan { display: flex; align-items: flex-end; padding-right: 4px; }
.ttr-fan .ttr-card + .ttr-card { margin-left: -30px; }
.ttr-note { display: flex; align-items: center; gap: 6px; font-size: 12px; margin-top: 7px;
  opacity: 0.9; max-width: 420px; }
.ttr-ticket { position: relative; display: inline-flex; align-items: stretch; width: 190px;
  min-height: 62px; border-radius: 7px; background: #f6ead0; color: #2b2116;
  box-shadow: 0 0 0 1px #b08d57, inset 0 0 0 3px #fff8e8, 1px 2px 3px rgba(0,0,0,0.25);
  box-sizing: border-box; padding: 7px 8px 7px 10px; gap: 8px; vertical-align: top; }
.ttr-ticket-cities { flex: 1; display: flex; flex-direction: column; justify-content: center;
  gap: 1px; min-width: 0; }
.ttr-city { display: flex; align-items: center; gap: 5px; font-weight: 700; font-size: 13px;
  overflow-wrap: anywhere; }
.ttr-city::before { content: ""; flex: none; width: 7px; height: 7px; border-radius: 50%;
  background: #c0392b; box-shadow: 0 0 0 1.5px #ffffff; }
.ttr-ticket-line { border-left: 2px dotted #8d6e46; height: 8px; margin-left: 3px; }
.ttr-ticket-side { display: flex; flex-direction: column; align-items: center;
  justify-content: center; gap: 3px; flex: none; }
.ttr-ticket-id { font-size: 10px; line-height: 1; opacity: 0.75; white-space: nowrap; }
.ttr-points { align-self: center; display: inline-flex; flex-direction: column;
  align-items: center; justify-content: center; min-width: 38px; height: 38px;
  border-radius: 19px; background: #3e2f1c; color: #ffffff; font-weight: 800; font-size: 15px;
  padding: 0 4px; box-sizing: border-box; }
.ttr-points-done { background: #1e7d3a; }
.ttr-points-fail { background: #b3261e; }
.ttr-status { font-size: 9px; font-weight: 700; text-transform: uppercase; line-height: 1;
  letter-spacing: 0.03em; }
.ttr-route { display: inline-flex; flex-direction: column; gap: 4px;
  border: 1px solid rgba(128,128,128,0.45); border-radius: 8px; padding: 5px 9px;
  background: rgba(128,128,128,0.07); vertical-align: top; }
.ttr-route-ends { font-weight: 700; }
.ttr-route-line { display: flex; align-items: center; gap: 8px; flex-wrap: wrap; }
.ttr-cars { display: inline-flex; gap: 3px; }
.ttr-car { display: inline-block; width: 16px; height: 10px; border-radius: 2px;
  box-shadow: 0 0 0 1px rgba(0,0,0,0.45), inset 0 0 0 1px rgba(255,255,255,0.3); }
.ttr-tunnel { display: inline-flex; align-items: center; gap: 4px; font-size: 12px;
  font-weight: 600; padding: 1px 7px 1px 4px; border-radius: 9px;
  background: rgba(121,85,72,0.2); border: 1px solid rgba(121,85,72,0.75); }
.ttr-dist svg { display: block; overflow: visible; }
.ttr-bar { fill: #3d85c6; }
.ttr-bar-zero { fill: none; stroke: rgba(128,128,128,0.7); }
.ttr-axis { stroke: currentColor; stroke-opacity: 0.6; }
.ttr-mean-mark { fill: #e8710a; }
.ttr-mean { margin-top: 4px; }
.ttr-mean b { color: #e8710a; }
.ttr-msg { display: flex; align-items: flex-start; gap: 8px; padding: 7px 10px;
  border-radius: 6px; border: 1px solid; border-left-width: 5px; max-width: 720px;
  box-sizing: border-box; }
.ttr-msg-icon { font-weight: 800; font-size: 15px; line-height: 1.2; flex: none; width: 18px;
  height: 18px; border-radius: 50%; color: #ffffff; text-align: center; font-size: 12px;
  line-height: 18px; }
.ttr-msg-error { background: rgba(211,47,47,0.12); border-color: rgba(211,47,47,0.85); }
.ttr-msg-error .ttr-msg-icon { background: #c62828; }
.ttr-msg-info { background: rgba(30,136,229,0.11); border-color: rgba(30,136,229,0.8); }
.ttr-msg-info .ttr-msg-icon { background: #1565c0; }
.ttr-msg-success { background: rgba(46,160,67,0.13); border-color: rgba(46,160,67,0.85); }
.ttr-msg-success .ttr-msg-icon { background: #2e7d32; }
.ttr-msg-warning { background: rgba(245,166,35,0.16); border-color: rgba(230,140,20,0.9); }
.ttr-msg-warning .ttr-msg-icon { background: #e08600; }
.ttr-msg-text { flex: 1; }
.ttr-widget.ttr-widget button:focus-visible, .ttr-widget.ttr-widget input:focus-visible,
.ttr-widget.ttr-widget select:focus-visible, .ttr-widget.ttr-widget textarea:focus-visible,
.ttr-widget.ttr-widget [tabindex]:focus-visible, .ttr-exercise.ttr-exercise button:focus-visible,
.ttr-exercise.ttr-exercise input:focus-visible, .ttr-root.ttr-root [tabindex]:focus-visible {
  outline: 3px solid #1b1b1b; outline-offset: -5px; box-shadow: inset 0 0 0 2px #ffffff; }
.ttr-widget.ttr-widget .widget-hbox { flex-wrap: wrap; }
.ttr-widget.ttr-widget .widget-dropdown, .ttr-widget.ttr-widget .widget-text,
.ttr-widget.ttr-widget .widget-html { max-width: 100%; }
.ttr-col { display: flex; flex-direction: column; gap: 10px; align-items: flex-start; }
.ttr-wrap { display: flex; flex-wrap: wrap; gap: 12px; align-items: flex-start; }
"""


def style() -> str:
    """The shared stylesheet as a ``<style>`` element (each fragment already includes it)."""
    return f"<style>{STYLE}</style>"


STYLE_TAG = style()

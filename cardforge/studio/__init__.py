"""``cardforge studio GAME``: a live view of a game's cards in the browser.

:mod:`cardforge.studio.session` keeps every card face as a PNG and, when files change,
re-renders only the faces whose content changed; :mod:`cardforge.studio.app` serves the page,
the images (by content hash) and the changes as server-sent events. Nothing below imports it.
"""

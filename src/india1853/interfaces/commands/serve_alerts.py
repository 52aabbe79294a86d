"""``india1853 serve``'s options of the turn alerts (web/alerts.py): the SMTP server e-mail
alerts go through, the quiet time, the sweep, the server's public address for links.

Each option falls back to an environment variable (so that a password need not be on a
command line, which other users of the machine can read): ``INDIA1853_SMTP_HOST``,
``INDIA1853_SMTP_PORT``, ``INDIA1853_SMTP_FROM``, ``INDIA1853_SMTP_STARTTLS`` (``1``/``0``),
``INDIA1853_SMTP_USER``, ``INDIA1853_SMTP_PASSWORD`` (environment only),
``INDIA1853_PUBLIC_URL``.  Without an SMTP host the server sends no e-mail (webhooks work).
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from india1853.errors import InputError
from india1853.interfaces.web.alerts import (
    MAX_QUIET_SECONDS,
    QUIET_SECONDS,
    SWEEP_SECONDS,
    AlertConfig,
    Smtp,
)

ENV = "INDIA1853_"


def register(parser: Any) -> None:
    group = parser.add_argument_group("turn alerts (docs/deployment.md, \"Turn alerts\")")
    group.add_argument("--smtp-host", help="SMTP server for e-mail alerts (default: "
                       f"{ENV}SMTP_HOST, else no e-mail)")
    group.add_argument("--smtp-port", type=int, help=f"its port (default: {ENV}SMTP_PORT, "
                       "else 587)")
    group.add_argument("--smtp-from", help=f"the alerts' sender address ({ENV}SMTP_FROM)")
    group.add_argument("--smtp-starttls", action=argparse.BooleanOptionalAction, default=None,
                       help=f"STARTTLS before sending (default: {ENV}SMTP_STARTTLS, else on)")
    group.add_argument("--smtp-user", help=f"login name ({ENV}SMTP_USER; the password only "
                       f"from {ENV}SMTP_PASSWORD)")
    group.add_argument("--alert-quiet-seconds", type=float, default=QUIET_SECONDS,
                       help="at most one alert per user per game in this time, unless the "
                       f"user sets his own (default {QUIET_SECONDS:g})")
    group.add_argument("--alert-sweep-seconds", type=float, default=SWEEP_SECONDS,
                       help="how often each process looks for alerts another process did not "
                       f"send (default {SWEEP_SECONDS:g}; 0: never)")
    group.add_argument("--alert-webhook-private", action="store_true",
                       help="allow webhooks to loopback and private addresses (a server on "
                       "a private network; off: such webhooks are refused)")
    group.add_argument("--public-url", help="the server's address as players reach it, for "
                       f"links in alerts (default: {ENV}PUBLIC_URL, else no link)")


def config(args: argparse.Namespace) -> AlertConfig:
    """The alert settings of the options and the environment; one-line errors."""
    env = os.environ
    quiet, sweep = args.alert_quiet_seconds, args.alert_sweep_seconds
    if not 0 <= quiet <= MAX_QUIET_SECONDS:
        raise InputError(f"--alert-quiet-seconds: must be from 0 to {MAX_QUIET_SECONDS}, "
                         f"got {quiet:g}")
    if not 0 <= sweep <= 3600:
        raise InputError(f"--alert-sweep-seconds: must be from 0 to 3600, got {sweep:g}")
    public = args.public_url or env.get(f"{ENV}PUBLIC_URL") or None
    if public is not None and not public.startswith(("http://", "https://")):
        raise InputError(f"--public-url: {public!r} is not an http(s) URL")
    return AlertConfig(smtp=_smtp(args), quiet_seconds=quiet, sweep_seconds=sweep,
                       webhook_private=args.alert_webhook_private, public_url=public)


def _smtp(args: argparse.Namespace) -> Smtp | None:
    env = os.environ
    host = args.smtp_host or env.get(f"{ENV}SMTP_HOST") or None
    if host is None:
        return None
    port_text = args.smtp_port if args.smtp_port is not None else env.get(f"{ENV}SMTP_PORT",
                                                                          "587")
    try:
        port = int(port_text)
    except ValueError:
        raise InputError(f"{ENV}SMTP_PORT: must be a port number, got {port_text!r}") from None
    if not 1 <= port <= 65535:
        raise InputError(f"--smtp-port: must be from 1 to 65535, got {port}")
    sender = args.smtp_from or env.get(f"{ENV}SMTP_FROM")
    if not sender or "@" not in sender or any(c in sender for c in "\r\n"):
        raise InputError("--smtp-from: an e-mail address the alerts are sent from is needed "
                         f"with an SMTP host (or {ENV}SMTP_FROM)")
    starttls = args.smtp_starttls
    if starttls is None:
        flag = env.get(f"{ENV}SMTP_STARTTLS", "1").strip().lower()
        if flag not in ("1", "0", "true", "false", "yes", "no", "on", "off"):
            raise InputError(f"{ENV}SMTP_STARTTLS: must be 1 or 0, got {flag!r}")
        starttls = flag in ("1", "true", "yes", "on")
    user = args.smtp_user or env.get(f"{ENV}SMTP_USER") or None
    password = env.get(f"{ENV}SMTP_PASSWORD") or None
    if user is not None and password is None:
        raise InputError(f"--smtp-user: the password comes from {ENV}SMTP_PASSWORD, which is "
                         "not set")
    return Smtp(host=host, sender=sender, port=port, starttls=starttls, user=user,
                password=password)

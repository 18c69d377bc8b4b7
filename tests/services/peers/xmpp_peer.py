#!/usr/bin/python3
"""An independent XMPP client for the service tests: slixmpp over plain TCP c2s.

Driven over stdin/stdout with one JSON object per line. Commands (each may carry "seq", echoed
back as "re" on the event that answers it):

  {"cmd": "connect", "jid": "bob@uc.local/peer", "password": "<JWT>", "host": "127.0.0.1", "port": 25222}
      -> {"event": "session_start"} | {"event": "failed_auth"} | {"event": "connection_failed"}
  {"cmd": "send", "to": "alice@uc.local", "body": "hi", "type": "chat"}   -> {"event": "sent", "id": ...}
  {"cmd": "ping"}        -> {"event": "pong", "ms": ...}   (IQ ping to the server: a barrier)
  {"cmd": "disconnect"}  -> {"event": "disconnected"}

Unsolicited events:

  {"event": "message", "from", "to", "type", "body", "id", "delay": bool}
  {"event": "mucsub", "node", "room", "from", "type", "body", "id", "delay": bool}   (a room message delivered
      to a MucSub subscriber: wrapped in <event xmlns='http://jabber.org/protocol/pubsub#event'>)
  {"event": "error", "message"}

Debian's /usr/bin/python3 with python3-slixmpp. ejabberd has no TLS on loopback, so SASL PLAIN
in the clear must be allowed explicitly (unencrypted_plain).
"""

import asyncio
import json
import sys
import time

import slixmpp
from slixmpp.xmlstream.handler import Callback
from slixmpp.xmlstream.matcher import MatchXPath

NS_CLIENT = 'jabber:client'
NS_PUBSUB_EVENT = 'http://jabber.org/protocol/pubsub#event'
NS_DELAY = 'urn:xmpp:delay'


def emit(obj):
    sys.stdout.write(json.dumps(obj) + '\n')
    sys.stdout.flush()


class Peer(slixmpp.ClientXMPP):
    def __init__(self, jid, password):
        super().__init__(jid, password)
        self['feature_mechanisms'].unencrypted_plain = True
        self.register_plugin('xep_0199')
        self.outcome = asyncio.get_event_loop().create_future()
        self.add_event_handler('session_start', self.on_session_start)
        self.add_event_handler('failed_auth', lambda _s: self.settle('failed_auth'))
        self.add_event_handler('connection_failed', lambda _e: self.settle('connection_failed'))
        self.add_event_handler('disconnected', lambda _r: emit({'event': 'disconnected'}))
        self.add_event_handler('message', self.on_message)
        # A MucSub delivery has no top-level <body>, so slixmpp's 'message' event never sees it.
        self.register_handler(Callback(
            'mucsub',
            MatchXPath('{%s}message/{%s}event' % (NS_CLIENT, NS_PUBSUB_EVENT)),
            self.on_mucsub,
        ))

    def settle(self, outcome):
        if not self.outcome.done():
            self.outcome.set_result(outcome)

    async def on_session_start(self, _event):
        # Initial presence: ejabberd delivers offline messages (MucSub ones too) only after it.
        self.send_presence()
        await self.get_roster()
        self.settle('session_start')

    def on_message(self, msg):
        if msg['type'] not in ('chat', 'normal', 'groupchat'):
            return
        emit({
            'event': 'message',
            'from': str(msg['from']),
            'to': str(msg['to']),
            'type': msg['type'],
            'body': msg['body'],
            'id': msg['id'],
            'delay': msg.xml.find('{%s}delay' % NS_DELAY) is not None,
        })

    def on_mucsub(self, stanza):
        items = stanza.xml.find('{%s}event/{%s}items' % (NS_PUBSUB_EVENT, NS_PUBSUB_EVENT))
        if items is None:
            return
        node = items.get('node')
        for item in items.findall('{%s}item' % NS_PUBSUB_EVENT):
            inner = item.find('{%s}message' % NS_CLIENT)
            if inner is None:
                continue
            body = inner.find('{%s}body' % NS_CLIENT)
            emit({
                'event': 'mucsub',
                'node': node,
                'room': str(stanza['from']),
                'from': inner.get('from'),
                'type': inner.get('type'),
                'body': body.text if body is not None else None,
                'id': inner.get('id'),
                # Set on the wrapper when it comes from offline storage.
                'delay': stanza.xml.find('{%s}delay' % NS_DELAY) is not None,
            })


async def main():
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    peer = None
    while True:
        line = await reader.readline()
        if not line:
            break
        try:
            cmd = json.loads(line)
        except ValueError as err:
            emit({'event': 'error', 'message': 'bad json: %s' % err})
            continue
        seq = cmd.get('seq')
        name = cmd.get('cmd')
        try:
            if name == 'connect':
                peer = Peer(cmd['jid'], cmd['password'])
                peer.connect(address=(cmd.get('host', '127.0.0.1'), int(cmd['port'])),
                             force_starttls=False, disable_starttls=True)
                outcome = await asyncio.wait_for(peer.outcome, cmd.get('timeout', 15))
                if outcome != 'session_start':
                    # Otherwise slixmpp keeps retrying the connection on its own.
                    peer.abort()
                emit({'event': outcome, 're': seq})
            elif name == 'send':
                msg = peer.make_message(mto=cmd['to'], mbody=cmd['body'], mtype=cmd.get('type', 'chat'))
                msg['id'] = cmd.get('id') or msg['id'] or peer.new_id()
                msg.send()
                emit({'event': 'sent', 'id': msg['id'], 're': seq})
            elif name == 'ping':
                started = time.monotonic()
                await peer['xep_0199'].ping(timeout=10)
                emit({'event': 'pong', 'ms': round((time.monotonic() - started) * 1000, 2), 're': seq})
            elif name == 'disconnect':
                if peer is not None:
                    await peer.disconnect()
                    peer = None
                else:
                    emit({'event': 'disconnected', 're': seq})
            else:
                emit({'event': 'error', 'message': 'unknown command %r' % name, 're': seq})
        except Exception as err:  # report, keep serving: the test decides what a failure means
            emit({'event': 'error', 'message': '%s: %s' % (type(err).__name__, err), 're': seq})
    if peer is not None:
        await peer.disconnect()


if __name__ == '__main__':
    asyncio.run(main())

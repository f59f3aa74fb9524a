"""WebSocket transport for Debian's stomp.py 8.0.0 (which predates WSStompConnection)."""
import logging
import ssl
import time

import websocket

from stomp import exception
from stomp.connect import BaseConnection
from stomp.protocol import Protocol12
from stomp.transport import Transport


class WSTransport(Transport):
    def __init__(self, host_and_ports=None, ws_path="/ws", header=None,
                 reconnect_attempts_max=3, timeout=None, vhost=None, **kwargs):
        Transport.__init__(self, host_and_ports=host_and_ports,
                           reconnect_attempts_max=reconnect_attempts_max,
                           timeout=timeout, vhost=vhost, **kwargs)
        self.ws_path = ws_path
        self.header = header
        self._ws_hosts = list(host_and_ports or [("localhost", 15674)])
        self._ws_attempts_max = reconnect_attempts_max
        self._ws_timeout = timeout
        self._ws_ssl_hosts = set()

    def set_ssl(self, for_hosts=(), **kwargs):
        for h in for_hosts:
            self._ws_ssl_hosts.add(tuple(h))

    def is_connected(self):
        return self.socket is not None and getattr(self.socket, "connected", False) and self.connected

    def attempt_connection(self):
        self.connection_error = False
        count = 0
        while self.running and self.socket is None and (
                count < self._ws_attempts_max or self._ws_attempts_max == -1):
            for host, port in self._ws_hosts:
                scheme = "wss" if (host, port) in self._ws_ssl_hosts else "ws"
                url = f"{scheme}://{host}:{port}{self.ws_path}"
                try:
                    ws = websocket.WebSocket(sslopt={"cert_reqs": ssl.CERT_NONE} if scheme == "wss" else {})
                    opts = {"timeout": self._ws_timeout}
                    if self.header:
                        opts["header"] = self.header
                    ws.connect(url, **opts)
                    ws.settimeout(None)
                    self.socket = ws
                    self.current_host_and_port = (host, port)
                    break
                except Exception as e:  # noqa: BLE001
                    self.socket = None
                    logging.warning("Could not connect to %s: %s", url, e)
            count += 1
            if self.socket is None and self.running:
                time.sleep(0.1)
        if not self.socket:
            raise exception.ConnectFailedException()

    def send(self, encoded_frame):
        if self.socket is None:
            raise exception.NotConnectedException()
        self.socket.send(encoded_frame.decode("utf-8") if isinstance(encoded_frame, bytes) else encoded_frame)

    def receive(self):
        try:
            data = self.socket.recv()
        except websocket.WebSocketConnectionClosedException:
            return b""
        except Exception:  # noqa: BLE001
            if self.is_connected():
                raise
            return b""
        return data.encode("utf-8") if isinstance(data, str) else data

    def cleanup(self):
        try:
            self.socket.close()
        except Exception:  # noqa: BLE001
            pass
        self.socket = None

    def disconnect_socket(self):
        self.running = False
        if self.socket is not None:
            try:
                self.socket.close()
            except Exception:  # noqa: BLE001
                pass
        self.current_host_and_port = None
        self.socket = None
        if not self.notified_on_disconnect:
            self.notify("disconnected")


class WSStompConnection(BaseConnection, Protocol12):
    def __init__(self, host_and_ports=None, prefer_localhost=True, try_loopback_connect=True,
                 reconnect_sleep_initial=0.1, reconnect_sleep_increase=0.5, reconnect_sleep_jitter=0.1,
                 reconnect_sleep_max=60.0, reconnect_attempts_max=3, timeout=None, heartbeats=(0, 0),
                 keepalive=None, vhost=None, auto_decode=True, encoding="utf-8", auto_content_length=True,
                 heart_beat_receive_scale=1.5, bind_host_port=None, ws_path="/ws", header=None):
        transport = WSTransport(host_and_ports=host_and_ports, ws_path=ws_path, header=header,
                                reconnect_attempts_max=reconnect_attempts_max, timeout=timeout,
                                vhost=vhost, auto_decode=auto_decode, encoding=encoding)
        BaseConnection.__init__(self, transport)
        Protocol12.__init__(self, transport, heartbeats, auto_content_length,
                            heart_beat_receive_scale=heart_beat_receive_scale)

    def connect(self, *args, **kwargs):
        self.transport.start()
        Protocol12.connect(self, *args, **kwargs)

    def disconnect(self, receipt=None, headers=None, **keyword_headers):
        Protocol12.disconnect(self, receipt, headers, **keyword_headers)
        if receipt is not None:
            self.transport.stop()

    @staticmethod
    def is_eol(c):
        return c == b"\x0a" or c == b"\x0d\x0a"

// A local HTTP proxy standing in for a static IP's upstream (an ISP proxy) in the browser tests: it
// forwards plain requests and CONNECT tunnels, and marks plain answers with `x-e2e-upstream`, so a test
// can tell which way the traffic left. Test-only: no auth, loopback only.
import http from 'node:http';
import net from 'node:net';

const port = Number(process.argv[2]);
const server = http.createServer((req, res) => {
  const target = new URL(req.url ?? '');
  const upstream = http.request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-e2e-upstream': String(port) });
    answer.pipe(res);
  });
  upstream.on('error', () => res.writeHead(502).end());
  req.pipe(upstream);
});
server.on('connect', (req, socket, head) => {
  const [host, targetPort] = (req.url ?? '').split(':');
  const out = net.connect(Number(targetPort), host, () => {
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    out.write(head);
    out.pipe(socket);
    socket.pipe(out);
  });
  out.on('error', () => socket.destroy());
  socket.on('error', () => out.destroy());
});
server.listen(port, '127.0.0.1');

// coturn's turnserver as the TURN relay of the browser test, on free loopback ports, with the REST
// shared secret the origin would hand credentials out from (coturn's use-auth-secret).
import { execFileSync, spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const TURNSERVER = '/usr/bin/turnserver';

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Whether a STUN binding request to port is answered (the relay is up). */
function stunAnswers(port) {
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    const request = Buffer.alloc(20);
    request.writeUInt16BE(0x0001, 0);
    request.writeUInt32BE(0x2112a442, 4);
    randomBytes(12).copy(request, 8);
    const timer = setTimeout(() => {
      socket.close();
      resolve(false);
    }, 200);
    socket.on('message', () => {
      clearTimeout(timer);
      socket.close();
      resolve(true);
    });
    socket.send(request, port, '127.0.0.1');
  });
}

export function coturnAvailable() {
  return existsSync(TURNSERVER);
}

/** A self-signed certificate for 127.0.0.1 (openssl), for coturn's TLS listener. */
function selfSigned(dir) {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert,
  ], { stdio: 'ignore', timeout: 10_000 });
  return { cert, key };
}

/**
 * Starts turnserver; returns {port, tlsPort, iceServers, stop()}. With tls, it also listens for
 * TURN over TLS on tlsPort with a self-signed certificate (the browser must be told to accept it).
 */
export async function startCoturn({ tls = false } = {}) {
  const port = await freePort();
  const tlsPort = tls ? await freePort() : 0;
  const secret = randomBytes(16).toString('hex');
  const dir = mkdtempSync(join(tmpdir(), 'tern-swarm-coturn-'));
  const minPort = 40000 + Math.floor(Math.random() * 20000);
  const tlsArgs = tls
    ? (({ cert, key }) => [`--tls-listening-port=${tlsPort}`, `--cert=${cert}`, `--pkey=${key}`])(selfSigned(dir))
    : ['--no-tls'];
  const child = spawn(TURNSERVER, [
    '-n', '--listening-ip=127.0.0.1', '--relay-ip=127.0.0.1', `--listening-port=${port}`,
    '--use-auth-secret', `--static-auth-secret=${secret}`, '--realm=tern.test',
    ...tlsArgs, '--no-dtls', '--no-cli', '--allow-loopback-peers', '--no-multicast-peers',
    `--min-port=${minPort}`, `--max-port=${minPort + 200}`, `--pidfile=${join(dir, 'turnserver.pid')}`,
    '--log-file=stdout', '--simple-log',
  ], { stdio: 'ignore' });
  let up = false;
  for (let i = 0; i < 50 && !up; i++) up = await stunAnswers(port);
  if (!up) {
    child.kill('SIGKILL');
    throw new Error(`turnserver did not answer STUN on 127.0.0.1:${port} within ~10 s`);
  }
  const username = `${Math.floor(Date.now() / 1000) + 3600}:swarm-test`;
  const credential = createHmac('sha1', secret).update(username).digest('base64');
  const urls = [`turn:127.0.0.1:${port}?transport=udp`, `turn:127.0.0.1:${port}?transport=tcp`];
  if (tls) urls.push(`turns:127.0.0.1:${tlsPort}?transport=tcp`);
  return {
    port,
    tlsPort,
    iceServers: [{ urls, username, credential }],
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

// A stand-in game server for trying the service without downloading a game (README.md, step 6): plain JavaScript, so
// any Node.js the agent runs on (20 or later) runs it. It speaks Source RCON on 127.0.0.1:RCON_PORT with RCON_PASSWORD,
// as a real game would, and reads the same commands on standard input: status, echo <text>, say <text>, quit.
// The agent sets RCON_PORT, RCON_PASSWORD, GAME_PORT and MAX_PLAYERS from the server's record.
import { Buffer } from 'node:buffer';
import { createServer } from 'node:net';
import process from 'node:process';
import { createInterface } from 'node:readline';
import { setImmediate } from 'node:timers';

const print = (line) => process.stdout.write(`${line}\n`);

const AUTH = 3;
const AUTH_RESPONSE = 2;
const EXEC = 2;
const RESPONSE = 0;
const rconPort = Number(process.env.RCON_PORT ?? 27015);
const maxPlayers = Number(process.env.MAX_PLAYERS ?? 16);

function execute(line) {
  const [command = '', ...rest] = line.trim().split(' ');
  if (command === 'status') return `players : 0 (max ${maxPlayers})`;
  if (command === 'echo') return rest.join(' ');
  if (command === 'say') return (print(`[Server] ${rest.join(' ')}`), '');
  if (command === 'quit' || command === 'stop') return (setImmediate(stop), 'Shutting down');
  return `Unknown command: ${command}`;
}

function packet(id, type, body = Buffer.alloc(0)) {
  const bytes = Buffer.alloc(14 + body.length);
  bytes.writeInt32LE(10 + body.length, 0);
  bytes.writeInt32LE(id, 4);
  bytes.writeInt32LE(type, 8);
  body.copy(bytes, 12);
  return bytes;
}

const rcon = createServer((socket) => {
  let received = Buffer.alloc(0);
  let authenticated = false;
  socket.on('error', () => undefined);
  socket.on('data', (chunk) => {
    received = Buffer.concat([received, chunk]);
    while (received.length >= 4) {
      const size = received.readInt32LE(0);
      if (size < 10 || size > 4110) return void socket.destroy();
      if (received.length < 4 + size) return;
      const id = received.readInt32LE(4);
      const type = received.readInt32LE(8);
      const body = received.subarray(12, 4 + size - 2).toString('utf8');
      received = received.subarray(4 + size);
      if (type === AUTH) {
        authenticated = body === (process.env.RCON_PASSWORD ?? '');
        socket.write(packet(id, RESPONSE));
        socket.write(packet(authenticated ? id : -1, AUTH_RESPONSE));
      } else if (!authenticated) {
        return void socket.destroy();
      } else if (type === RESPONSE) {
        // What Source servers do with an empty RESPONSE_VALUE (clients send one to find a reply's end): mirror it,
        // then a packet with this odd body.
        socket.write(packet(id, RESPONSE));
        socket.write(packet(id, RESPONSE, Buffer.from([0, 0, 0, 1, 0, 0, 0, 0])));
      } else if (type === EXEC) {
        socket.write(packet(id, RESPONSE, Buffer.from(execute(body), 'utf8')));
      }
    }
  });
});

function stop() {
  print('Server stopping');
  rcon.close();
  process.exit(0);
}

process.on('SIGTERM', stop);
process.on('SIGINT', stop);
createInterface({ input: process.stdin }).on('line', (line) => {
  const answer = execute(line);
  if (answer) print(answer);
});
rcon.listen(rconPort, '127.0.0.1', () => print(`Stand-in game: RCON on 127.0.0.1:${rconPort}; Server ready`));

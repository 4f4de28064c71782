#!/usr/bin/env node
// The Node relay of Tern's Nostr benchmark: @nostr-relay/core 0.0.40 with its SQLite repository
// (better-sqlite3) and validator, on ws, wired as its README shows.
// usage: node relay.mjs <port> <database file>
// Its SQLite database is in WAL mode with better-sqlite3's defaults (synchronous NORMAL in WAL),
// so an acknowledged event survives a crash of the process, not of the machine.
import core from '@nostr-relay/core';
import common from '@nostr-relay/common';
import sqlite from '@nostr-relay/event-repository-sqlite';
import validation from '@nostr-relay/validator';
import { WebSocketServer } from 'ws';

const { NostrRelay } = core;
const { createOutgoingNoticeMessage } = common;
const { EventRepositorySqlite } = sqlite;
const { Validator } = validation;
const [port, file] = process.argv.slice(2);
const repository = new EventRepositorySqlite(file);
await repository.init();
const relay = new NostrRelay(repository);
const validator = new Validator();
const wss = new WebSocketServer({ host: '127.0.0.1', port: Number(port), maxPayload: 1 << 20 });

wss.on('connection', (ws, req) => {
  relay.handleConnection(ws, req.socket.remoteAddress);
  ws.on('message', async (data) => {
    try {
      const message = await validator.validateIncomingMessage(data);
      await relay.handleMessage(ws, message);
    } catch (error) {
      if (error instanceof Error) ws.send(JSON.stringify(createOutgoingNoticeMessage(error.message)));
    }
  });
  ws.on('close', () => relay.handleDisconnect(ws));
  ws.on('error', (error) => ws.send(JSON.stringify(createOutgoingNoticeMessage(error.message))));
});
process.on('SIGTERM', () => { wss.close(); relay.destroy().finally(() => process.exit(0)); });

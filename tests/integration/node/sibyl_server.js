// One `sibyl start` process for the Node.js suites; its output is kept for
// failure messages. SIBYL_BIN names the binary (default: build/sibyl).
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { freePort } = require('./free_port');

const REPO = path.resolve(__dirname, '..', '..', '..');
const SIBYL_BIN = process.env.SIBYL_BIN || path.join(REPO, 'build', 'sibyl');
const READY_LINE = /Starting listening for CQL clients on (\S+):(\d+)/;
const STARTUP_TIMEOUT_MS = 30000;
const STOP_TIMEOUT_MS = 5000;

class SibylServer {
  constructor() {
    this.workdir = fs.mkdtempSync(path.join(os.tmpdir(), 'sibyl-node-'));
    this.output = '';
    this.child = null;
    this.port = 0;
    this.exitCode = null;
    this.exitSignal = null;
  }

  async start(extraArgs = []) {
    if (!fs.existsSync(SIBYL_BIN)) {
      throw new Error(`no sibyl binary at ${SIBYL_BIN}: build it (scripts/build.sh) or set SIBYL_BIN`);
    }
    this.port = await freePort();
    const args = ['start', '--data-dir', path.join(this.workdir, 'data'), '--listen-address', '127.0.0.1',
      '--native-transport-port', String(this.port), '--prometheus-port', '0', ...extraArgs];
    this.child = spawn(SIBYL_BIN, args, { cwd: this.workdir, stdio: ['ignore', 'pipe', 'pipe'] });
    this.exited = new Promise((resolve) => {
      this.child.on('exit', (code, signal) => {
        this.exitCode = code;
        this.exitSignal = signal;
        resolve();
      });
    });
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(
        `sibyl not ready within ${STARTUP_TIMEOUT_MS} ms\n--- output ---\n${this.output}`)), STARTUP_TIMEOUT_MS);
      const onData = (chunk) => {
        this.output += chunk.toString();
        const match = READY_LINE.exec(this.output);
        if (match) {
          clearTimeout(timer);
          if (Number(match[2]) !== this.port) {
            reject(new Error(`ready line names port ${match[2]}, expected ${this.port}`));
          } else {
            resolve();
          }
        }
      };
      this.child.stdout.on('data', onData);
      this.child.stderr.on('data', onData);
      this.exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`sibyl exited (code ${this.exitCode}, signal ${this.exitSignal}) before ` +
          `becoming ready\n--- output ---\n${this.output}`));
      });
    });
    return this;
  }

  alive() {
    return this.child !== null && this.exitCode === null && this.exitSignal === null;
  }

  // Sends `signal` and resolves with the exit code; rejects after 5 s.
  async stop(signal = 'SIGTERM') {
    if (this.alive()) this.child.kill(signal);
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`sibyl did not exit within ${STOP_TIMEOUT_MS} ms of ${signal}`)),
        STOP_TIMEOUT_MS);
    });
    try {
      await Promise.race([this.exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
    return this.exitCode;
  }

  kill() {
    if (this.alive()) this.child.kill('SIGKILL');
  }

  cleanup() {
    this.kill();
    fs.rmSync(this.workdir, { recursive: true, force: true });
  }
}

module.exports = { SibylServer, SIBYL_BIN };

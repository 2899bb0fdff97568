/**
 * yaml-language-server (the server behind VS Code's YAML extension, and Neovim's, Helix's…)
 * driven over stdio as an editor drives it: Language Server Protocol messages with
 * Content-Length framing. Enough of a client for the tests: open a file, read the
 * diagnostics it publishes, ask for hover and completion.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const SERVER = join(
  dirname(createRequire(import.meta.url).resolve('yaml-language-server/package.json')),
  'bin/yaml-language-server',
);

export interface Position {
  line: number;
  character: number;
}
export interface Diagnostic {
  range: { start: Position; end: Position };
  message: string;
  severity?: number;
}
export interface CompletionItem {
  label: string;
}
interface Message {
  id?: number;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { message: string };
}

/** The `yaml` settings an editor sends; schemaStore off: the tests never reach the network. */
export type YamlSettings = Record<string, unknown>;

export class LanguageServer {
  private buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private readonly diagnostics = new Map<string, Diagnostic[][]>();
  private readonly waiters: { uri: string; resolve: (d: Diagnostic[]) => void }[] = [];
  private stderr = '';

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly settings: YamlSettings,
  ) {
    child.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    child.on('exit', () => {
      for (const { reject } of this.pending.values()) reject(new Error(`yaml-language-server exited: ${this.stderr}`));
    });
  }

  /** Starts the server on a workspace folder, with the `yaml` settings an editor would send. */
  static async start(root: string, settings: YamlSettings): Promise<LanguageServer> {
    const child = spawn(process.execPath, [SERVER, '--stdio'], { stdio: 'pipe' });
    const server = new LanguageServer(child, { schemaStore: { enable: false }, ...settings });
    const rootUri = pathToFileURL(root).href;
    await server.request('initialize', {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: 'repo' }],
      capabilities: {
        workspace: { configuration: true },
        textDocument: {
          hover: { contentFormat: ['markdown', 'plaintext'] },
          completion: { completionItem: { snippetSupport: true } },
          publishDiagnostics: {},
        },
      },
    });
    server.notify('initialized', {});
    server.notify('workspace/didChangeConfiguration', { settings: { yaml: server.settings } });
    return server;
  }

  /** Opens a document and returns the first diagnostics published for it. */
  async open(file: string, text: string): Promise<Diagnostic[]> {
    const uri = pathToFileURL(file).href;
    const published = new Promise<Diagnostic[]>((resolve) => this.waiters.push({ uri, resolve }));
    this.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
    return withTimeout(published, 15_000, `no diagnostics for ${file}: ${this.stderr}`);
  }

  async hover(file: string, at: Position): Promise<string> {
    const result = (await this.request('textDocument/hover', {
      textDocument: { uri: pathToFileURL(file).href },
      position: at,
    })) as { contents?: { value?: string } } | null;
    return result?.contents?.value ?? '';
  }

  async completion(file: string, at: Position): Promise<CompletionItem[]> {
    const result = (await this.request('textDocument/completion', {
      textDocument: { uri: pathToFileURL(file).href },
      position: at,
    })) as { items?: CompletionItem[] } | CompletionItem[] | null;
    return Array.isArray(result) ? result : (result?.items ?? []);
  }

  async close(): Promise<void> {
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    await this.request('shutdown', null).catch(() => undefined);
    this.notify('exit', null);
    await withTimeout(exited, 5_000, 'yaml-language-server did not exit').catch(() => this.child.kill());
  }

  private request(method: string, params: unknown): Promise<unknown> {
    const id = this.nextId++;
    const answer = new Promise<unknown>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.send({ jsonrpc: '2.0', id, method, params });
    return withTimeout(answer, 15_000, `${method}: no answer from yaml-language-server: ${this.stderr}`);
  }

  private notify(method: string, params: unknown): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  private send(message: object): void {
    const body = Buffer.from(JSON.stringify(message), 'utf8');
    this.child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.child.stdin.write(body);
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, end).toString())?.[1]);
      if (this.buffer.length < end + 4 + length) return;
      const message = JSON.parse(this.buffer.subarray(end + 4, end + 4 + length).toString('utf8')) as Message;
      this.buffer = this.buffer.subarray(end + 4 + length);
      this.dispatch(message);
    }
  }

  private dispatch(message: Message): void {
    if (message.method !== undefined && message.id !== undefined) return this.answer(message);
    if (message.method === 'textDocument/publishDiagnostics') {
      const { uri, diagnostics } = message.params as { uri: string; diagnostics: Diagnostic[] };
      this.diagnostics.set(uri, [...(this.diagnostics.get(uri) ?? []), diagnostics]);
      const waiter = this.waiters.findIndex((w) => w.uri === uri);
      if (waiter >= 0) this.waiters.splice(waiter, 1)[0]?.resolve(diagnostics);
      return;
    }
    if (message.id !== undefined) {
      const pending = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) pending?.reject(new Error(message.error.message));
      else pending?.resolve(message.result);
    }
  }

  /** Requests from the server: the settings it pulls, and registrations it announces. */
  private answer(message: Message): void {
    let result: unknown = null;
    if (message.method === 'workspace/configuration') {
      const items = (message.params as { items: { section?: string }[] }).items;
      result = items.map((item) =>
        item.section === 'yaml' ? this.settings : item.section === 'http' ? { proxy: '', proxyStrictSSL: false } : {},
      );
    }
    this.send({ jsonrpc: '2.0', id: message.id, result });
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

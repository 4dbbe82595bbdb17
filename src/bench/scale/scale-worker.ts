// Child-process entry of the scale benchmark: runs one system at one size alone and sends its row back.
import type { ScaleRow, ScaleRunParams } from './measure-scale-run.js';
import { measureScaleRun } from './measure-scale-run.js';
import type { ScaleSystemFactory } from './scale-system.js';

/** What the parent sends: where to import the factory from, the size and the run parameters. */
export interface ScaleWorkerRequest {
  readonly module: string;
  readonly exportName: string;
  /** When present, the export is called with these to make the factory. */
  readonly args?: readonly unknown[];
  readonly size: number;
  readonly params: ScaleRunParams;
}

async function run(req: ScaleWorkerRequest): Promise<void> {
  const mod = (await import(req.module)) as Record<string, unknown>;
  const exported = mod[req.exportName];
  const factory = (
    req.args && typeof exported === 'function' ? (exported as (...a: unknown[]) => ScaleSystemFactory)(...req.args) : exported
  ) as ScaleSystemFactory | undefined;
  if (!factory || typeof factory.create !== 'function') throw new Error(`${req.module} has no factory ${req.exportName}`);
  const send = (row: ScaleRow): Promise<void> =>
    new Promise((resolve, reject) => process.send?.(row, undefined, {}, (e) => (e ? reject(e) : resolve())));
  // The row goes out before the size probe too, so an index too big to serialise keeps its figures.
  await send(await measureScaleRun(factory, req.size, req.params, send));
}

process.once('message', (req: ScaleWorkerRequest) => {
  run(req).then(
    () => process.exit(0),
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    },
  );
});

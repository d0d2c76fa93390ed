// One quotation reader and one compute worker per test process, lent to every Parley a test file starts there. Each
// worker loads its modules through tsx when it starts (about 2 s of CPU with its loader thread); with a Parley per
// file, starting both again for every file cost the e2e project more CPU than many of its stories. Lent workers are
// not closed by the Parley that borrows them (src/server.ts), and an idle worker is unreferenced, so it never keeps
// the process alive. Sharing is safe because neither holds a story's state: the compute tasks are pure, and the
// reader's catalog index is kept under the catalog's content key (src/db/stores/catalog-store.ts: the workspace, the
// active product count and the last applied import), which a copy of a template shares only while its catalog is the
// template's. A test that looks into a worker, or needs one slow, starts its own and passes it instead.
import { createOffThreadSheetReader, type OffThreadSheetReader } from '../../src/quotation/off-thread-sheet-reader.js';
import { createOffThreadCompute, type OffThreadCompute } from '../../src/worker/compute.js';

let shared: { compute: OffThreadCompute; sheetReader: OffThreadSheetReader } | undefined;

export function sharedWorkers(): { compute: OffThreadCompute; sheetReader: OffThreadSheetReader } {
  return (shared ??= { compute: createOffThreadCompute(), sheetReader: createOffThreadSheetReader() });
}

// The compute worker: a 3,000-line decision priced off the event loop gives the same numbers as in
// this thread, while this thread's timers keep running; workbooks and charts come back as Buffers.
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { baselineOf, curveballInput, offerOf } from '../../test/support/decide-fixtures.js';
import { loopTurnsWhile } from '../../test/support/loop-turns.js';
import { samplePurchaseOrder } from '../../test/support/po-fixture.js';
import type { DecisionInput } from '../decision/decide.js';
import { computeInProcess, createOffThreadCompute } from './compute.js';

const compute = createOffThreadCompute();
compute.start(); // as the server does: the worker loads its modules before the first task
afterAll(() => compute.close());

/** The curveball case on 3,000 SKUs: the allocation works through every line for each supplier and cap. */
function largeDecision(): DecisionInput {
  const prices = (factor: number) =>
    Object.fromEntries(Array.from({ length: 3_000 }, (_, i) => [`SKU-${i}`, 20 + ((i * 37) % 50) * factor]));
  return curveballInput({
    baseline: baselineOf(prices(1)),
    finalOffers: [offerOf('SUP-001', prices(0.9)), offerOf('SUP-002', prices(0.8)), offerOf('SUP-003', prices(0.93))],
    openingOffers: [offerOf('SUP-001', prices(1)), offerOf('SUP-002', prices(0.88)), offerOf('SUP-003', prices(0.99))],
  });
}

describe('the compute worker', () => {
  it('prices a 3,000-line award off the event loop, with the same numbers as in this thread', async () => {
    const input = largeDecision();
    await compute.decide(curveballInput()); // the worker's start (tsx, module loading) is not the measure
    const inThread = await loopTurnsWhile(computeInProcess.decide(input));
    const offThread = await loopTurnsWhile(compute.decide(input));
    expect(offThread.result).toEqual(inThread.result);
    expect(inThread.result.ok).toBe(true);
    // In this thread the whole decision runs in one piece and the loop does not turn; in the worker it turns on.
    expect(inThread.turns).toBeLessThanOrEqual(1);
    expect(offThread.turns).toBeGreaterThan(10);
  }, 60_000);

  it('returns workbooks and charts as Buffers', async () => {
    const workbook = await compute.purchaseOrderWorkbook(samplePurchaseOrder());
    expect(Buffer.isBuffer(workbook)).toBe(true);
    const read = new ExcelJS.Workbook();
    await read.xlsx.load(workbook as unknown as ArrayBuffer);
    expect(read.worksheets.length).toBeGreaterThan(0);
    const chart = await compute.priceChart({
      suppliers: [{ code: 'SUP-001', name: 'Ningbo Everbright' }],
      points: [
        { supplierCode: 'SUP-001', round: 0, total: 100 },
        { supplierCode: 'SUP-001', round: 1, total: 90 },
      ],
      curveballAfterRound: null,
      currency: 'USD',
      title: 'Offer totals by round',
    });
    expect(chart.subarray(1, 4).toString('latin1')).toBe('PNG');
  }, 60_000);

  it('turns a task that throws into a rejection, and keeps serving', async () => {
    await expect(
      compute.purchaseOrderWorkbook(null as unknown as Parameters<typeof compute.purchaseOrderWorkbook>[0]),
    ).rejects.toThrow(/purchaseOrderWorkbook failed in the compute worker/);
    expect((await compute.decide(curveballInput())).ok).toBe(true);
  }, 60_000);
});

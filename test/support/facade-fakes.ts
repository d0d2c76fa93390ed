// What the facade (src/services/parley.ts) is built with, faked for the tests that call its services or its job
// handlers directly: no Slack files, and background work that queues nothing.
import type { ParleyOptions } from '../../src/services/parley.js';
import type { SlackFiles } from '../../src/services/quotation/download-shared-file.js';

const noFile = () => Promise.reject(new Error('no files in this test'));

/** Slack's files, for a flow that reads none: every call fails. */
export const noFiles: SlackFiles = { info: noFile, download: noFile, channel: noFile, recentFiles: noFile };

/** Background work that queues nothing: the test runs the jobs itself (`parley.jobs`), or needs none. */
export function fakeWork(): ParleyOptions['work'] {
  return {
    driveNegotiation: async () => {},
    readQuotation: async () => {},
    sendReviewWorkbook: async () => {},
    sendPurchaseOrderWorkbook: async () => {},
    idle: async () => {},
  };
}

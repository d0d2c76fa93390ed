// The brand's catalog in one modal: the upload (`/parley catalog`, the App Home's Import catalog), then — in the same
// view, updated — reading, the preview with Merge / Replace / Cancel, importing and what the import did. Everything
// from the file (names, SKUs, problems quoting them) is untrusted and escaped here.
import type { ModalView } from '@slack/types';
import { z } from 'zod';
import type { CatalogImportReport, CatalogPreview } from '../../app-types.js';
import { ACTION, BLOCK, CALLBACK, catalogImportCodec } from '../ids.js';
import { actions, button, context, fieldsSection, section, slackDate } from './blocks.js';
import { clip, inline, label, mention, preformatted } from './escape.js';
import { LIMITS } from './limits.js';
import type { ParseResult } from './modal-state.js';

const TITLE = 'Import catalog';
/** Problems listed in the preview; the rest are counted. */
export const PREVIEW_PROBLEMS_SHOWN = 10;
export const CATALOG_FILETYPES = ['csv', 'xlsx'] as const;

const count = (n: number) => n.toLocaleString('en-US');
const products = (n: number) => `${count(n)} product${n === 1 ? '' : 's'}`;

function shell(blocks: ModalView['blocks'], extra: Partial<ModalView> = {}): ModalView {
  return { type: 'modal', title: label(TITLE, 24), close: label('Close', 24), blocks, ...extra };
}

export interface CatalogModalModel {
  catalogSize: number;
  lastImport: { fileName: string; mode: 'merge' | 'replace'; by: string | null; at: Date } | null;
}

/** The upload: a CSV or XLSX with a header row; Merge or Replace is chosen on the preview, knowing what each does. */
export function buildCatalogModal(model: CatalogModalModel): ModalView {
  const last = model.lastImport;
  const lastText = last
    ? `Last import: ${inline(last.fileName, 80)} (${last.mode}${last.by ? ` by ${mention(last.by)}` : ''}, ${slackDate(last.at)}).`
    : 'No catalog file imported yet.';
  return shell(
    [
      section(
        'Share your catalog as a *CSV* or *Excel (.xlsx)* file with a header row naming *sku*, *name*, *color*, ' +
          '*size* and *category* (and optionally *brand*). Common spellings work too: _Item code_, _Product name_, ' +
          '_Colour_. Parley shows what would change before anything does.',
      ),
      context([`Quotations are matched against ${products(model.catalogSize)} now. ${lastText}`]),
      {
        type: 'input',
        block_id: BLOCK.catalogFile,
        label: label('Catalog file', 2000),
        hint: label('One file, up to 10 MB (Slack’s limit for uploads in a form).', 2000),
        element: {
          type: 'file_input',
          action_id: ACTION.catalogFile,
          filetypes: [...CATALOG_FILETYPES],
          max_files: 1,
        },
      },
    ],
    { callback_id: CALLBACK.catalogModal, submit: label('Preview', 24), close: label('Cancel', 24) },
  );
}

const uploadedFileSchema = z.looseObject({ id: z.string().min(1).max(40), name: z.string().default('catalog') });
const fileStateSchema = z.looseObject({ files: z.array(uploadedFileSchema).default([]) });

/** The file the modal was submitted with, or the field error to show. */
export function parseCatalogModal(values: unknown): ParseResult<{ fileId: string; fileName: string }> {
  const state = z.record(z.string(), z.record(z.string(), z.unknown())).safeParse(values);
  const entry = fileStateSchema.safeParse(state.success ? state.data[BLOCK.catalogFile]?.[ACTION.catalogFile] : null);
  const file = entry.success ? entry.data.files[0] : undefined;
  if (!file) return { ok: false, errors: { [BLOCK.catalogFile]: 'Add a .csv or .xlsx file.' } };
  const extension = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase() ?? '';
  if (!(CATALOG_FILETYPES as readonly string[]).includes(extension)) {
    return { ok: false, errors: { [BLOCK.catalogFile]: 'Parley reads a catalog from a .csv or .xlsx file.' } };
  }
  return { ok: true, value: { fileId: file.id, fileName: file.name } };
}

export function buildCatalogReadingModal(fileName: string): ModalView {
  return shell([
    section(`:hourglass_flowing_sand: Reading *${inline(fileName, 120)}*…`),
    context(['A few seconds; a file of 100,000 products takes up to half a minute. Nothing changes yet.']),
  ]);
}

function mergeLine(p: CatalogPreview): string {
  const { added, changed, unchanged } = p.merge;
  return `*Merge*\n${count(added)} new · ${count(changed)} changed · ${count(unchanged)} unchanged; the rest of the catalog stays`;
}

function replaceLine(p: CatalogPreview): string {
  const { added, changed, removed, retired } = p.replace;
  const kept = retired > 0 ? ` · ${count(retired)} retired (kept for the quotations and POs that name them)` : '';
  return `*Replace*\n${count(added)} new · ${count(changed)} changed · ${count(removed)} removed${kept}`;
}

/** The preview: what Merge and Replace would each do, the first rows, the problems; nothing changed yet. */
export function buildCatalogPreviewModal(p: CatalogPreview): ModalView {
  const value = catalogImportCodec.encode({ ci: p.importId });
  const where = p.sheet ? ` (sheet ${inline(p.sheet, 40)})` : '';
  const skipped = p.rowsRead - p.importable;
  const blocks: ModalView['blocks'] = [
    section(
      `*${inline(p.fileName, 120)}*${where}: ${products(p.importable)} to import` +
        (skipped > 0 ? `, ${count(skipped)} row${skipped === 1 ? '' : 's'} skipped (see below)` : '') +
        `. The catalog has ${products(p.catalogSize)} now.`,
    ),
    fieldsSection([mergeLine(p), replaceLine(p)]),
  ];
  const sample = preformatted(
    p.sample.map((row) =>
      [clip(row.sku, 24), clip(row.name, 40), clip(row.color, 20), clip(row.size, 8), clip(row.category, 20)].join(
        ' · ',
      ),
    ),
    2900,
  );
  if (sample.text) blocks.push(section(`First rows as they will be stored:\n${sample.text}`));
  if (p.problemCount > 0) {
    const shown = p.problems.slice(0, PREVIEW_PROBLEMS_SHOWN);
    const list = preformatted(
      shown.map((problem) => `row ${problem.row}: ${clip(problem.message, 160)}`),
      2800,
    );
    blocks.push(
      section(`:warning: *${count(p.problemCount)} row${p.problemCount === 1 ? '' : 's'} skipped:*\n${list.text}`),
    );
    const more = p.problemCount - list.shown;
    if (more > 0)
      blocks.push(context([`…and ${count(more)} more. Fix them in the file and import it again to add them.`]));
  }
  const replaceWarning =
    p.replace.removed + p.replace.retired > 0
      ? `${products(p.replace.removed)} not in the file will be deleted` +
        (p.replace.retired > 0 ? ` and ${count(p.replace.retired)} retired` : '') +
        '.'
      : 'Every product in the catalog is in the file.';
  blocks.push(
    actions(BLOCK.catalogActions, [
      button({ text: 'Merge', actionId: ACTION.catalogMerge, value, style: 'primary' }),
      button({
        text: 'Replace catalog',
        actionId: ACTION.catalogReplace,
        value,
        style: 'danger',
        confirm: {
          title: 'Replace the catalog?',
          text: `${replaceWarning} Quotations already read keep their matches.`,
          confirm: 'Replace',
          deny: 'Back',
        },
      }),
      button({ text: 'Cancel', actionId: ACTION.catalogCancel, value }),
    ]),
    context([
      'Nothing changes until you choose. Merge adds and updates; Replace also removes what the file leaves out.',
    ]),
  );
  return shell(blocks);
}

export function buildCatalogImportingModal(fileName: string, mode: 'merge' | 'replace'): ModalView {
  return shell([
    section(
      `:hourglass_flowing_sand: Importing *${inline(fileName, 120)}* (${mode === 'merge' ? 'merge' : 'replacing the catalog'})…`,
    ),
    context(['You can close this; the import goes on. `/parley catalog` shows the last import.']),
  ]);
}

export function buildCatalogImportedModal(report: CatalogImportReport): ModalView {
  const parts = [`${count(report.added)} new`, `${count(report.changed)} changed`];
  if (report.mode === 'replace') parts.push(`${count(report.removed)} removed`, `${count(report.retired)} retired`);
  return shell([
    section(
      `:white_check_mark: ${report.repeated ? 'Already imported' : 'Imported'} *${inline(report.fileName, 120)}* ` +
        `(${report.mode}): ${parts.join(' · ')}.`,
    ),
    context([`Quotations are matched against ${products(report.catalogSize)} from now on.`]),
  ]);
}

export function buildCatalogCancelledModal(): ModalView {
  return shell([section('Cancelled. The catalog is unchanged.')]);
}

/**
 * A click on the preview failed before anything was saved (logged under `ref`): the preview as the person saw it,
 * under a warning asking them to click again. A warning from an earlier failed click is replaced, not stacked.
 */
export function buildCatalogClickFailedModal(shown: ModalView['blocks'], ref: string): ModalView {
  const warning = section(
    `:warning: That did not go through (ref \`${inline(ref, 40)}\`); nothing was changed. Please click again.`,
    BLOCK.catalogClickFailed,
  );
  const rest = shown.filter((block) => block.block_id !== BLOCK.catalogClickFailed).slice(0, LIMITS.viewBlocks - 1);
  return shell([warning, ...rest]);
}

/** The import failed unexpectedly (logged): the catalog is unchanged, as it is written in one transaction. */
export function buildCatalogFailedModal(): ModalView {
  return shell([
    section(
      ':warning: The import failed and has been logged. The catalog is unchanged; try again in a minute, or run `/parley catalog` again.',
    ),
  ]);
}

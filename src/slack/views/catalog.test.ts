import { describe, expect, it } from 'vitest';
import { ACTION, BLOCK, CALLBACK, catalogImportCodec } from '../ids.js';
import {
  buildCatalogImportedModal,
  buildCatalogModal,
  buildCatalogPreviewModal,
  parseCatalogModal,
  PREVIEW_PROBLEMS_SHOWN,
} from './catalog.js';
import { blockKitViolations } from './limits.js';
import { CATALOG_PREVIEW, CATALOG_REPORT, catalogModalValues } from '../../../test/support/slack-payloads.js';

const text = (value: unknown) => JSON.stringify(value);

describe('buildCatalogModal', () => {
  it('asks for one CSV or XLSX in a file_input, within Block Kit’s limits', () => {
    const view = buildCatalogModal({
      catalogSize: 10_052,
      lastImport: { fileName: 'spring.csv', mode: 'merge', by: 'U0SAM00001', at: new Date('2027-03-01T10:00:00Z') },
    });
    expect(view.callback_id).toBe(CALLBACK.catalogModal);
    const input = view.blocks.find((block) => block.block_id === BLOCK.catalogFile);
    expect(input).toMatchObject({
      type: 'input',
      element: { type: 'file_input', action_id: ACTION.catalogFile, filetypes: ['csv', 'xlsx'], max_files: 1 },
    });
    expect(text(view)).toContain('10,052 products');
    expect(text(view)).toContain('<@U0SAM00001>');
    expect(blockKitViolations(view, 'modal')).toEqual([]);
  });
});

describe('parseCatalogModal', () => {
  it('reads the uploaded file, and refuses none or another type with a field error', () => {
    expect(parseCatalogModal(catalogModalValues([{ id: 'F0CAT00001', name: 'Catalog.XLSX' }]))).toEqual({
      ok: true,
      value: { fileId: 'F0CAT00001', fileName: 'Catalog.XLSX' },
    });
    expect(parseCatalogModal(catalogModalValues([]))).toMatchObject({
      ok: false,
      errors: { [BLOCK.catalogFile]: expect.any(String) },
    });
    expect(parseCatalogModal(catalogModalValues([{ id: 'F0CAT00002', name: 'catalog.pdf' }]))).toMatchObject({
      ok: false,
    });
    expect(parseCatalogModal({ nonsense: 1 })).toMatchObject({ ok: false });
  });
});

describe('buildCatalogPreviewModal', () => {
  it('shows both choices, escapes the file’s text, and carries the import id on Merge, Replace and Cancel', () => {
    const view = buildCatalogPreviewModal({
      ...CATALOG_PREVIEW,
      fileName: '<!channel> catalog.csv',
      sample: [{ sku: 'A-1', name: '<@U0EVIL0001> Tee ```', color: 'Black', size: 'M', category: 'Tops' }],
    });
    const json = text(view);
    expect(json).not.toContain('<!channel>');
    expect(json).not.toContain('<@U0EVIL0001>');
    expect(json).toContain('&lt;!channel&gt;');
    expect(json).toMatch(/1 new · 1 changed · 5 removed · 1 retired/);
    const actions = view.blocks.find((block) => block.block_id === BLOCK.catalogActions);
    const elements = actions && 'elements' in actions ? actions.elements : [];
    expect(elements.map((e) => ('action_id' in e ? e.action_id : null))).toEqual([
      ACTION.catalogMerge,
      ACTION.catalogReplace,
      ACTION.catalogCancel,
    ]);
    for (const element of elements) {
      expect(catalogImportCodec.decode('value' in element ? element.value : undefined)).toEqual({
        ci: CATALOG_PREVIEW.importId,
      });
    }
    expect(blockKitViolations(view, 'modal')).toEqual([]);
  });

  it('lists the first problems with their rows and counts the rest, within the limits', () => {
    const problems = Array.from({ length: 50 }, (_, i) => ({
      row: i + 2,
      sku: null,
      message: `bad ${'x'.repeat(300)}`,
    }));
    const view = buildCatalogPreviewModal({ ...CATALOG_PREVIEW, problems, problemCount: 1234 });
    const json = text(view);
    expect(json).toContain('row 2: bad');
    expect(json).not.toContain(`row ${PREVIEW_PROBLEMS_SHOWN + 2}:`);
    expect(json).toMatch(/and 1,2\d\d more/);
    expect(blockKitViolations(view, 'modal')).toEqual([]);
  });
});

describe('buildCatalogImportedModal', () => {
  it('says what the import did', () => {
    expect(text(buildCatalogImportedModal(CATALOG_REPORT))).toMatch(
      /Imported \*catalog.csv\* \(merge\): 1 new · 1 changed/,
    );
    expect(text(buildCatalogImportedModal({ ...CATALOG_REPORT, repeated: true }))).toContain('Already imported');
  });
});

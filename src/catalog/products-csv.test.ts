import { describe, expect, it } from 'vitest';
import { generateCatalog, toCatalogCsv } from '../../dev/catalog/catalog-generator.js';
import { type CatalogProduct, parseCatalogCsv } from './products-csv.js';

const HEADER = 'brand,sku,name,color,size,category';

describe('parseCatalogCsv', () => {
  it('reads back what toCatalogCsv writes, commas, quotes and newlines included', () => {
    const awkward: CatalogProduct = {
      brand: 'Valden Outdoor',
      sku: 'MC001-GLW-XL',
      name: 'Summit "Pro" Jacket, 2nd Edition',
      color: 'Glacier White',
      size: 'XL',
      category: 'Coats & Shells',
    };
    const multiline: CatalogProduct = { ...awkward, sku: 'MC001-GLW-L', size: 'L', name: 'Summit\nJacket' };
    const rows = [...generateCatalog({ count: 500 }), awkward, multiline];
    expect(parseCatalogCsv(toCatalogCsv(rows))).toEqual(rows);
  });

  it('reads CRLF line endings, a BOM, blank lines and columns in any order, ignoring extra ones', () => {
    const csv = [
      '\uFEFFsku,Category,size,color,name,brand,notes',
      'MC001-0BS-M,Coats & Shells,M,Obsidian Black,"Glacier Down Parka",Valden Outdoor,"new, for FW25"',
      '',
      'UH002-FOG-OS,Headwear,One Size,Fog,Alpine Beanie,Valden Outdoor,',
      '',
    ].join('\r\n');
    expect(parseCatalogCsv(csv)).toEqual([
      {
        brand: 'Valden Outdoor',
        sku: 'MC001-0BS-M',
        name: 'Glacier Down Parka',
        color: 'Obsidian Black',
        size: 'M',
        category: 'Coats & Shells',
      },
      {
        brand: 'Valden Outdoor',
        sku: 'UH002-FOG-OS',
        name: 'Alpine Beanie',
        color: 'Fog',
        size: 'One Size',
        category: 'Headwear',
      },
    ]);
  });

  it('names the line of a bad row and what is wrong with it', () => {
    const csv = [
      HEADER,
      'Valden Outdoor,MC001-GLW-XL,"Summit Jacket,',
      'two lines",Glacier White,XL,Jackets',
      'Valden Outdoor,MC001 GLW XL,Summit Jacket,Glacier White,XL,Jackets',
    ].join('\n');
    expect(() => parseCatalogCsv(csv)).toThrow(/^catalog CSV line 4: sku must look like STYLE-COLOR-SIZE/);
    expect(() => parseCatalogCsv(`${HEADER}\nValden Outdoor,MC001-GLW-XL,,Glacier White,XL,Jackets`)).toThrow(
      /line 2: name must not be empty/,
    );
    expect(() => parseCatalogCsv(`${HEADER}\nAcme,MC001-GLW-XL,Summit Jacket,Glacier White,XL,Jackets`)).toThrow(
      /line 2: brand /,
    );
    expect(() => parseCatalogCsv(`${HEADER}\nValden Outdoor,MC001-GLW-XL,Summit Jacket,XL,Jackets`)).toThrow(
      /line 2: has 5 fields, the header has 6/,
    );
    expect(() => parseCatalogCsv(`${HEADER}\nValden Outdoor,MC001-GLW-XL,"Summit,Glacier White,XL,Jackets`)).toThrow(
      /line 2: quoted field is never closed/,
    );
  });

  it('rejects a SKU listed twice, naming both lines', () => {
    const row = 'Valden Outdoor,MC001-GLW-XL,Summit Jacket,Glacier White,XL,Jackets';
    expect(() => parseCatalogCsv([HEADER, row, row].join('\n'))).toThrow(
      /line 3: duplicate sku MC001-GLW-XL \(first on line 2\)/,
    );
  });

  it('requires a header with all six columns', () => {
    expect(() => parseCatalogCsv('brand,sku,name,size\nValden Outdoor,MC001-GLW-XL,Summit Jacket,XL\n')).toThrow(
      'catalog CSV line 1: missing column(s) color, category',
    );
    expect(() => parseCatalogCsv('')).toThrow(/empty/);
  });
});

import { describe, expect, it } from 'vitest';
import { currencyIn, parseMoney, parseNumber, parsePercent, round } from './numbers.js';

describe('parseNumber', () => {
  it.each([
    ['1234.5', 1234.5],
    ['-3', -3],
    ['1,234.50', 1234.5],
    ['1,234,567', 1234567],
    ['1.234,50', 1234.5],
    ['1.234.567', 1234567],
    ['12,50', 12.5],
    ['0,500', 0.5],
    ['1 234,50', 1234.5],
    ['1\u00a0234,50', 1234.5],
    ["1'234.50", 1234.5],
    ['(12.50)', -12.5],
    ['-12.50', -12.5],
    ['\u221212.50', -12.5],
    ['12.50-', -12.5],
    ['1,200 pcs', 1200],
    ['300 PCS/style', 300],
    ['50 un.', 50],
    ['1200件', 1200],
    ['12.50/pc', 12.5],
    ['8.20 per piece', 8.2],
    ['US$ 1,234.00', 1234],
    ['１２３４', 1234],
    ['.5', 0.5],
    ['1e-7', 1e-7],
  ])('reads %j as %d', (text, expected) => {
    expect(parseNumber(text)).toBe(expected);
  });

  it.each([
    '',
    '   ',
    'abc',
    'N/A',
    'TBA',
    '-',
    '5%',
    '2024-01-05',
    '12/05',
    '5 XL',
    '12 apples',
    '1.2.3,4,5',
    '12 34',
    '+86 574 8688 1234',
    '=HYPERLINK("http://evil.example","12")',
    'KF001-FRG-M',
    '30-35 days',
  ])('rejects %j', (text) => {
    expect(parseNumber(text)).toBeNull();
  });

  it('settles "1.234" and "12,500" by the sheet’s decimal separator', () => {
    expect(parseNumber('1.234')).toBe(1.234);
    expect(parseNumber('1.234', { decimal: ',' })).toBe(1234);
    expect(parseNumber('12,500')).toBe(12500);
    expect(parseNumber('12,500', { decimal: ',' })).toBe(12.5);
    // Unambiguous shapes do not depend on the hint.
    expect(parseNumber('1.234,50', { decimal: '.' })).toBe(1234.5);
    expect(parseNumber('1,234.50', { decimal: ',' })).toBe(1234.5);
  });
});

describe('parseNumber at the edge of a double', () => {
  it('reads 309 digits as nothing rather than Infinity', () => {
    expect(parseNumber('9'.repeat(308))).toBe(Number('9'.repeat(308)));
    expect(parseNumber('9'.repeat(309))).toBeNull();
    expect(parseMoney(`-${'9'.repeat(400)}`)).toBeNull();
  });
});

describe('parseMoney', () => {
  it.each([
    ['US$ 1,234.00', 1234, 'USD'],
    ['$12.50', 12.5, 'USD'],
    ['USD 12.50', 12.5, 'USD'],
    ['12.50 USD/pc', 12.5, 'USD'],
    ['12,50 €', 12.5, 'EUR'],
    ['€ 1.234,50', 1234.5, 'EUR'],
    ['EUR 3.036,10', 3036.1, 'EUR'],
    ['£9.99', 9.99, 'GBP'],
    ['¥85.00', 85, 'CNY'],
    ['￥1,250', 1250, 'CNY'],
    ['RMB 85', 85, 'CNY'],
    ['CNY85', 85, 'CNY'],
    ['85元/件', 85, 'CNY'],
    ['HK$ 12', 12, 'HKD'],
    ['CHF 12.5', 12.5, 'CHF'],
    ['-$12.50', -12.5, 'USD'],
    ['($12.50)', -12.5, 'USD'],
    ['$(12.50)', -12.5, 'USD'],
    ['1,234.00', 1234, null],
  ])('reads %j as %d %s', (text, amount, currency) => {
    expect(parseMoney(text)).toEqual({ amount, currency });
  });

  it('rejects two currencies and text', () => {
    expect(parseMoney('USD 12 EUR')).toBeNull();
    expect(parseMoney('about $12')).toBeNull();
    expect(parseMoney('free')).toBeNull();
  });
});

describe('parsePercent', () => {
  it('reads marked percentages as fractions', () => {
    expect(parsePercent('5%')).toBe(0.05);
    expect(parsePercent('7,5%')).toBe(0.075);
    expect(parsePercent('5 % off')).toBe(0.05);
    expect(parsePercent('-3%')).toBe(-0.03);
  });

  it('reads a fraction as itself: a percent-formatted cell arrives as 0.05', () => {
    expect(parsePercent('0.05')).toBe(0.05);
    expect(parsePercent('0.05', { percentColumn: true })).toBe(0.05);
  });

  it('reads a bare 5 as 5 % only in a column headed %', () => {
    expect(parsePercent('5')).toBeNull();
    expect(parsePercent('5', { percentColumn: true })).toBe(0.05);
    expect(parsePercent('0.5', { bare: 'points' })).toBe(0.005);
  });

  it('reads the Chinese 折 as the share paid', () => {
    expect(parsePercent('9折')).toBe(0.1);
    expect(parsePercent('85折')).toBe(0.15);
  });

  it('rejects garbage', () => {
    expect(parsePercent('abc%')).toBeNull();
    expect(parsePercent('')).toBeNull();
    expect(parsePercent('250', { percentColumn: true })).toBeNull();
  });
});

describe('currencyIn', () => {
  it('names the one currency a text mentions', () => {
    expect(currencyIn('Unit Price (USD)')).toBe('USD');
    expect(currencyIn('Currency: US$')).toBe('USD');
    expect(currencyIn('人民币 RMB')).toBe('CNY');
    // 美元 is the US dollar, not renminbi, though it ends in 元.
    expect(currencyIn('美元 USD')).toBe('USD');
    expect(currencyIn('美元')).toBe('USD');
    expect(currencyIn('欧元')).toBe('EUR');
    expect(currencyIn('单价(元)')).toBe('CNY');
    expect(currencyIn('Prices in EUR')).toBe('EUR');
  });

  it('says nothing for none or several', () => {
    expect(currencyIn('Unit Price')).toBeNull();
    expect(currencyIn('USD or EUR')).toBeNull();
    expect(currencyIn('Europe')).toBeNull();
  });
});

describe('round', () => {
  it('rounds half away from zero without float slips', () => {
    expect(round(30.3605, 3)).toBe(30.361);
    expect(round(1.005, 2)).toBe(1.01);
    expect(round(-1.005, 2)).toBe(-1.01);
  });
});

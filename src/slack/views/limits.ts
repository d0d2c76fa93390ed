// Block Kit limits checked at runtime. Slack's TypeScript types only document these numbers (nothing enforces them),
// and a payload over a limit is rejected by Slack with `invalid_blocks` long after the builder ran, so tests and the
// sandbox call `blockKitViolations()` on every payload instead. Numbers and sources:
// /work/shared/slack-specs/block-kit-limits.md.
//
// The walker takes `unknown` on purpose: the sandbox feeds it JSON decoded from real Web API calls, not typed objects.

export type Surface = 'message' | 'modal' | 'home';

export const LIMITS = {
  messageBlocks: 50,
  viewBlocks: 100,
  messageText: 40_000,
  text: 3000,
  sectionText: 3000,
  sectionFields: 10,
  sectionField: 2000,
  header: 150,
  contextElements: 10,
  actionsElements: 25,
  buttonText: 75,
  buttonValue: 2000,
  url: 3000,
  accessibilityLabel: 75,
  id: 255,
  optionText: 75,
  optionValue: 150,
  optionDescription: 75,
  selectOptions: 100,
  optionGroups: 100,
  optionGroupLabel: 75,
  checkboxOptions: 10,
  overflowOptions: 5,
  placeholder: 150,
  modalTitle: 24,
  modalButton: 24,
  privateMetadata: 3000,
  callbackId: 255,
  inputLabel: 2000,
  inputHint: 2000,
  textInputLength: 3000,
  imageAltText: 2000,
  imageTitle: 2000,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  /** `table` (@slack/types 3.2 TableBlock): rows, cells a row, column_settings. */
  tableRows: 100,
  tableColumns: 20,
  /** `data_table` (docs.slack.dev/reference/block-kit/blocks/data-table-block): header + 1–100 rows, 1–20 columns. */
  dataTableRows: 101,
  dataTablePageSize: 100,
  /** `context_actions` (@slack/types 3.2 ContextActionsBlock): "Maximum number of items is 5". */
  contextActionsElements: 5,
  /** views.open/update/push/publish answer `view_too_large` above this (bytes of the view's JSON). */
  viewBytes: 250_000,
} as const;

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Counted in UTF-16 code units, like Slack's own length checks on JSON strings.
function len(s: string): number {
  return s.length;
}

class Checker {
  readonly violations: string[] = [];
  private readonly blockIds = new Map<string, string>();

  add(path: string, message: string): void {
    this.violations.push(`${path}: ${message}`);
  }

  maxString(path: string, value: unknown, max: number, what: string): void {
    if (value === undefined) return;
    if (typeof value !== 'string') {
      this.add(path, `${what} must be a string`);
      return;
    }
    if (len(value) > max) this.add(path, `${what} is ${len(value)} chars, limit ${max}`);
  }

  maxItems(path: string, value: unknown, max: number, what: string): unknown[] {
    if (value === undefined) return [];
    if (!Array.isArray(value)) {
      this.add(path, `${what} must be an array`);
      return [];
    }
    if (value.length > max) this.add(path, `${what} has ${value.length} items, limit ${max}`);
    return value;
  }

  /** A text object: `{ type: 'plain_text' | 'mrkdwn', text }`, 1..max chars. */
  textObject(path: string, value: unknown, max: number, what: string, opts: { plainOnly?: boolean } = {}): void {
    if (!isRecord(value)) {
      this.add(path, `${what} must be a text object`);
      return;
    }
    if (value.type !== 'plain_text' && value.type !== 'mrkdwn') {
      this.add(path, `${what} has type ${String(value.type)}, expected plain_text or mrkdwn`);
    } else if (opts.plainOnly && value.type !== 'plain_text') {
      this.add(path, `${what} must be plain_text`);
    }
    if (typeof value.text !== 'string') {
      this.add(path, `${what} text must be a string`);
      return;
    }
    if (value.text.length === 0) this.add(path, `${what} text is empty`);
    else if (len(value.text) > max) this.add(path, `${what} text is ${len(value.text)} chars, limit ${max}`);
  }

  optionalText(path: string, value: unknown, max: number, what: string, opts: { plainOnly?: boolean } = {}): void {
    if (value !== undefined) this.textObject(path, value, max, what, opts);
  }

  blockId(path: string, value: unknown): void {
    if (value === undefined) return;
    this.maxString(path, value, LIMITS.id, 'block_id');
    if (typeof value !== 'string') return;
    const first = this.blockIds.get(value);
    if (first !== undefined) this.add(path, `block_id '${value}' is also used by ${first}`);
    else this.blockIds.set(value, path);
  }

  confirm(path: string, value: unknown): void {
    if (value === undefined) return;
    if (!isRecord(value)) {
      this.add(path, 'confirm must be an object');
      return;
    }
    this.optionalText(`${path}.title`, value.title, LIMITS.confirmTitle, 'confirm title', { plainOnly: true });
    this.textObject(`${path}.text`, value.text, LIMITS.confirmText, 'confirm text');
    this.optionalText(`${path}.confirm`, value.confirm, LIMITS.confirmButton, 'confirm button', { plainOnly: true });
    this.optionalText(`${path}.deny`, value.deny, LIMITS.confirmButton, 'deny button', { plainOnly: true });
  }

  option(path: string, value: unknown, opts: { allowUrl?: boolean } = {}): void {
    if (!isRecord(value)) {
      this.add(path, 'option must be an object');
      return;
    }
    this.textObject(`${path}.text`, value.text, LIMITS.optionText, 'option text');
    this.maxString(`${path}.value`, value.value, LIMITS.optionValue, 'option value');
    this.optionalText(`${path}.description`, value.description, LIMITS.optionDescription, 'option description');
    if (value.url !== undefined && !opts.allowUrl) this.add(path, 'option url is only allowed in overflow menus');
    this.maxString(`${path}.url`, value.url, LIMITS.url, 'option url');
  }

  options(path: string, value: unknown, max: number, opts: { allowUrl?: boolean } = {}): void {
    this.maxItems(path, value, max, 'options').forEach((o, i) => this.option(`${path}[${i}]`, o, opts));
  }

  element(path: string, value: unknown, actionIds: Map<string, string> | undefined): void {
    if (!isRecord(value)) {
      this.add(path, 'element must be an object');
      return;
    }
    const type = typeof value.type === 'string' ? value.type : '?';
    const where = `${path} (${type})`;
    if (value.action_id !== undefined) {
      this.maxString(where, value.action_id, LIMITS.id, 'action_id');
      if (typeof value.action_id === 'string' && actionIds) {
        const first = actionIds.get(value.action_id);
        if (first !== undefined)
          this.add(where, `action_id '${value.action_id}' is also used by ${first} in this block`);
        else actionIds.set(value.action_id, path);
      }
    }
    this.optionalText(`${where}.placeholder`, value.placeholder, LIMITS.placeholder, 'placeholder', {
      plainOnly: true,
    });
    this.confirm(`${where}.confirm`, value.confirm);
    switch (type) {
      case 'button':
        this.textObject(`${where}.text`, value.text, LIMITS.buttonText, 'button text', { plainOnly: true });
        this.maxString(where, value.value, LIMITS.buttonValue, 'button value');
        this.maxString(where, value.url, LIMITS.url, 'button url');
        this.maxString(where, value.accessibility_label, LIMITS.accessibilityLabel, 'accessibility_label');
        break;
      case 'static_select':
      case 'multi_static_select':
        if (value.options === undefined && value.option_groups === undefined) {
          this.add(where, 'a static select needs options or option_groups');
        }
        this.options(`${where}.options`, value.options, LIMITS.selectOptions);
        this.maxItems(`${where}.option_groups`, value.option_groups, LIMITS.optionGroups, 'option_groups').forEach(
          (g, i) => {
            const gp = `${where}.option_groups[${i}]`;
            if (!isRecord(g)) {
              this.add(gp, 'option group must be an object');
              return;
            }
            this.textObject(`${gp}.label`, g.label, LIMITS.optionGroupLabel, 'option group label', { plainOnly: true });
            this.options(`${gp}.options`, g.options, LIMITS.selectOptions);
          },
        );
        if (value.initial_option !== undefined) this.option(`${where}.initial_option`, value.initial_option);
        this.maxItems(
          `${where}.initial_options`,
          value.initial_options,
          LIMITS.selectOptions,
          'initial_options',
        ).forEach((o, i) => this.option(`${where}.initial_options[${i}]`, o));
        break;
      case 'checkboxes':
      case 'radio_buttons':
        this.options(`${where}.options`, value.options, LIMITS.checkboxOptions);
        break;
      case 'overflow':
        this.options(`${where}.options`, value.options, LIMITS.overflowOptions, { allowUrl: true });
        break;
      case 'plain_text_input':
        for (const key of ['min_length', 'max_length'] as const) {
          const n = value[key];
          if (n !== undefined && (typeof n !== 'number' || n > LIMITS.textInputLength || n < 0)) {
            this.add(where, `${key} is ${String(n)}, must be 0..${LIMITS.textInputLength}`);
          }
        }
        this.maxString(where, value.initial_value, LIMITS.textInputLength, 'initial_value');
        break;
      case 'image':
        this.maxString(where, value.alt_text, LIMITS.imageAltText, 'alt_text');
        break;
      case 'mrkdwn':
      case 'plain_text':
        // Context blocks hold bare text objects as elements.
        this.textObject(where, value, LIMITS.text, 'text');
        break;
      default:
        break;
    }
  }

  block(path: string, value: unknown, surface: Surface): void {
    if (!isRecord(value)) {
      this.add(path, 'block must be an object');
      return;
    }
    const type = typeof value.type === 'string' ? value.type : '?';
    const where = `${path} (${type}${typeof value.block_id === 'string' ? ` '${value.block_id.slice(0, 40)}'` : ''})`;
    this.blockId(where, value.block_id);
    const actionIds = new Map<string, string>();
    switch (type) {
      case 'section':
        if (value.text === undefined && value.fields === undefined) this.add(where, 'a section needs text or fields');
        this.optionalText(`${where}.text`, value.text, LIMITS.sectionText, 'section text');
        this.maxItems(`${where}.fields`, value.fields, LIMITS.sectionFields, 'fields').forEach((f, i) =>
          this.textObject(`${where}.fields[${i}]`, f, LIMITS.sectionField, 'field'),
        );
        if (value.accessory !== undefined) this.element(`${where}.accessory`, value.accessory, actionIds);
        break;
      case 'header':
        this.textObject(`${where}.text`, value.text, LIMITS.header, 'header text', { plainOnly: true });
        break;
      case 'context':
        if (!Array.isArray(value.elements) || value.elements.length === 0) {
          this.add(where, 'a context block needs at least one element');
        }
        this.maxItems(`${where}.elements`, value.elements, LIMITS.contextElements, 'elements').forEach((e, i) =>
          this.element(`${where}.elements[${i}]`, e, undefined),
        );
        break;
      case 'actions':
        if (!Array.isArray(value.elements) || value.elements.length === 0) {
          this.add(where, 'an actions block needs at least one element');
        }
        this.maxItems(`${where}.elements`, value.elements, LIMITS.actionsElements, 'elements').forEach((e, i) =>
          this.element(`${where}.elements[${i}]`, e, actionIds),
        );
        break;
      case 'input':
        // A message has no submit button: only dispatch_action makes an input there reach the app.
        if (surface === 'message' && value.dispatch_action !== true) {
          this.add(where, 'an input block in a message needs dispatch_action: true');
        }
        this.textObject(`${where}.label`, value.label, LIMITS.inputLabel, 'input label', { plainOnly: true });
        this.optionalText(`${where}.hint`, value.hint, LIMITS.inputHint, 'input hint', { plainOnly: true });
        if (value.element === undefined) this.add(where, 'an input block needs an element');
        else this.element(`${where}.element`, value.element, actionIds);
        break;
      case 'image':
        this.maxString(where, value.alt_text, LIMITS.imageAltText, 'alt_text');
        if (typeof value.alt_text !== 'string') this.add(where, 'an image block needs alt_text');
        this.optionalText(`${where}.title`, value.title, LIMITS.imageTitle, 'image title', { plainOnly: true });
        break;
      case 'table':
        this.tableRows(where, value.rows, { maxRows: LIMITS.tableRows, header: false });
        this.maxItems(`${where}.column_settings`, value.column_settings, LIMITS.tableColumns, 'column_settings');
        break;
      case 'data_table':
        if (typeof value.caption !== 'string' || value.caption.trim() === '')
          this.add(where, 'a data_table needs a caption');
        this.tableRows(where, value.rows, { maxRows: LIMITS.dataTableRows, header: true });
        if (
          value.page_size !== undefined &&
          !(
            Number.isInteger(value.page_size) &&
            Number(value.page_size) >= 1 &&
            Number(value.page_size) <= LIMITS.dataTablePageSize
          )
        ) {
          this.add(where, `page_size must be 1–${LIMITS.dataTablePageSize}`);
        }
        break;
      case 'alert':
        // "alert (modals only)": Slack's reference lists it for modal surfaces.
        if (surface !== 'modal') this.add(where, 'an alert block is for modals only');
        this.textObject(`${where}.text`, value.text, LIMITS.text, 'alert text');
        if (
          value.level !== undefined &&
          !['default', 'info', 'warning', 'error', 'success'].includes(String(value.level))
        ) {
          this.add(where, `alert level ${String(value.level)} is not one of default|info|warning|error|success`);
        }
        break;
      case 'context_actions':
        if (!Array.isArray(value.elements) || value.elements.length === 0) {
          this.add(where, 'a context_actions block needs at least one element');
        }
        this.maxItems(`${where}.elements`, value.elements, LIMITS.contextActionsElements, 'elements').forEach((e, i) =>
          this.feedbackButtons(`${where}.elements[${i}]`, e, actionIds),
        );
        break;
      default:
        break;
    }
  }

  /** Table rows: an array of equal-length arrays of raw_text / raw_number / rich_text cells, ≤ 20 a row. */
  tableRows(path: string, rows: unknown, opts: { maxRows: number; header: boolean }): void {
    if (!Array.isArray(rows) || rows.length < (opts.header ? 2 : 1)) {
      this.add(path, opts.header ? 'a data_table needs a header row and at least one row' : 'a table needs rows');
      return;
    }
    this.maxItems(`${path}.rows`, rows, opts.maxRows, 'rows');
    const width = Array.isArray(rows[0]) ? rows[0].length : 0;
    rows.forEach((row, r) => {
      if (!Array.isArray(row)) return this.add(`${path}.rows[${r}]`, 'a row must be an array of cells');
      if (row.length > LIMITS.tableColumns)
        this.add(`${path}.rows[${r}]`, `has ${row.length} cells, limit ${LIMITS.tableColumns}`);
      if (opts.header && row.length !== width)
        this.add(`${path}.rows[${r}]`, 'every row must have as many cells as the header');
      row.forEach((cell, c) => {
        const type = isRecord(cell) ? cell.type : undefined;
        if (type !== 'raw_text' && type !== 'raw_number' && type !== 'rich_text') {
          this.add(`${path}.rows[${r}][${c}]`, 'a cell is raw_text, raw_number or rich_text');
        } else if (opts.header && r === 0 && type === 'rich_text') {
          this.add(`${path}.rows[0][${c}]`, 'header cells cannot be rich_text');
        } else if (type === 'raw_text' && (!isRecord(cell) || typeof cell.text !== 'string' || cell.text === '')) {
          this.add(`${path}.rows[${r}][${c}]`, 'raw_text needs a non-empty text');
        } else if (type === 'raw_number' && (!isRecord(cell) || typeof cell.value !== 'number')) {
          this.add(`${path}.rows[${r}][${c}]`, 'raw_number needs a numeric value');
        }
      });
    });
  }

  /** A feedback_buttons element (@slack/types 3.2 FeedbackButtons): both buttons, labels ≤ 75, an action_id. */
  feedbackButtons(path: string, value: unknown, actionIds: Map<string, string>): void {
    if (!isRecord(value)) return this.add(path, 'element must be an object');
    if (value.type === 'icon_button') return;
    if (value.type !== 'feedback_buttons')
      return this.add(path, 'context_actions holds feedback_buttons or icon_button');
    this.maxString(path, value.action_id, LIMITS.id, 'action_id');
    if (typeof value.action_id === 'string') {
      if (actionIds.has(value.action_id)) this.add(path, `action_id '${value.action_id}' repeats in the block`);
      actionIds.set(value.action_id, path);
    }
    for (const side of ['positive_button', 'negative_button'] as const) {
      const button = value[side];
      if (!isRecord(button)) {
        this.add(path, `feedback_buttons needs a ${side}`);
        continue;
      }
      this.textObject(`${path}.${side}.text`, button.text, LIMITS.buttonText, 'button text', { plainOnly: true });
      this.maxString(`${path}.${side}`, button.value, LIMITS.buttonValue, 'value');
      if (typeof button.value !== 'string' || button.value === '')
        this.add(`${path}.${side}`, 'a feedback button needs a value');
      this.maxString(`${path}.${side}`, button.accessibility_label, LIMITS.accessibilityLabel, 'accessibility_label');
    }
  }
}

/**
 * Every Block Kit limit the payload breaks, as readable sentences (empty when it is fine).
 * `payload` is a message (`{ text, blocks }`, as given to chat.postMessage/update/postEphemeral) or a View.
 */
export function blockKitViolations(payload: unknown, surface: Surface): string[] {
  const c = new Checker();
  if (!isRecord(payload)) {
    c.add('payload', 'must be an object');
    return c.violations;
  }
  const blocks = payload.blocks;
  if (surface === 'message') {
    if (typeof payload.text !== 'string' || payload.text.trim().length === 0) {
      c.add('text', 'a message needs a fallback text (notifications and screen readers use it)');
    } else if (len(payload.text) > LIMITS.messageText) {
      c.add('text', `is ${len(payload.text)} chars, limit ${LIMITS.messageText}`);
    }
    c.maxItems('blocks', blocks, LIMITS.messageBlocks, 'blocks');
  } else {
    if (payload.type !== surface) c.add('type', `is ${String(payload.type)}, expected ${surface}`);
    if (!Array.isArray(blocks)) c.add('blocks', 'a view needs a blocks array');
    c.maxItems('blocks', blocks, LIMITS.viewBlocks, 'blocks');
    c.maxString('private_metadata', payload.private_metadata, LIMITS.privateMetadata, 'private_metadata');
    c.maxString('callback_id', payload.callback_id, LIMITS.callbackId, 'callback_id');
    c.maxString('external_id', payload.external_id, LIMITS.id, 'external_id');
    const bytes = Buffer.byteLength(JSON.stringify(payload), 'utf8');
    if (bytes > LIMITS.viewBytes) c.add('view', `is ${bytes} bytes of JSON, limit ${LIMITS.viewBytes}`);
    if (surface === 'modal') {
      c.textObject('title', payload.title, LIMITS.modalTitle, 'modal title', { plainOnly: true });
      c.optionalText('submit', payload.submit, LIMITS.modalButton, 'submit', { plainOnly: true });
      c.optionalText('close', payload.close, LIMITS.modalButton, 'close', { plainOnly: true });
      const hasInput = Array.isArray(blocks) && blocks.some((b) => isRecord(b) && b.type === 'input');
      if (hasInput && payload.submit === undefined) c.add('submit', 'a modal with input blocks needs a submit button');
    }
  }
  if (Array.isArray(blocks)) blocks.forEach((b, i) => c.block(`blocks[${i}]`, b, surface));
  return c.violations;
}

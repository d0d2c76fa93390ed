// `/parley negotiate` without a link: the channel's recent spreadsheets, each with a Negotiate button (or, for one
// Parley has read, a link to its thread), shown to the person who asked only. File names are the uploader's text:
// escaped and cut here.
import type { KnownBlock } from '@slack/types';
import type { RecentChannelFile } from '../../app-types.js';
import { ACTION, fileRefCodec, SLASH_COMMAND } from '../ids.js';
import { type SlackMessage, button, context, plural, safeUrl, section, who } from './blocks.js';
import { inline } from './escape.js';

/** Slack truncates long names in a section anyway; a short one keeps each row on one line. */
const NAME_MAX = 80;

export const NEGOTIATE_WITH_LINK = `Or give the file's link (⋯ on the file → *Copy link*): \`${SLASH_COMMAND} negotiate https://…/files/…\`.`;

export function buildNegotiateChoices(files: readonly RecentChannelFile[]): SlackMessage {
  if (files.length === 0) {
    return {
      text: 'No spreadsheet was shared in this channel lately.',
      blocks: [
        section(
          'No spreadsheet was shared in this channel lately. Share the quotation’s .xlsx here and Parley reads it ' +
            'in its thread.',
        ),
        context([NEGOTIATE_WITH_LINK]),
      ],
    };
  }
  const blocks: KnownBlock[] = [section('*Which quotation should Parley negotiate?*')];
  for (const file of files) {
    const row = section(`:page_facing_up: *${inline(file.name, NAME_MAX)}* · shared by ${who(file.sharedBy)}`);
    const thread = safeUrl(file.readInThread);
    row.accessory = thread
      ? button({ text: 'Open its thread', actionId: ACTION.openThread, url: thread, value: file.fileId })
      : button({
          text: 'Negotiate',
          actionId: ACTION.negotiateFile,
          value: fileRefCodec.encode({ f: file.fileId }),
          style: 'primary',
        });
    blocks.push(row);
  }
  blocks.push(context([NEGOTIATE_WITH_LINK]));
  return { text: `${plural(files.length, 'recent spreadsheet')} in this channel`, blocks };
}

/**
 * A direct message to Parley (text or a file): quotations are read in channels, where approvers see the thread, so
 * this says how to get one there.
 */
export function buildDirectMessageHelp(): SlackMessage {
  const text =
    'Parley reads supplier quotations shared in a channel, not in a direct message: the negotiation happens in the ' +
    'file’s thread, where your approvers can follow it.';
  return {
    text,
    blocks: [
      section(`:wave: ${text}`),
      section(
        '• Share the quotation’s .xlsx in a channel Parley is in. To add Parley to a channel, type ' +
          '`/invite @Parley` there.\n' +
          '• For a file already in a channel, use *Negotiate this quote* from the message’s ⋯ menu, or ' +
          `\`${SLASH_COMMAND} negotiate\` in that channel.\n` +
          `• \`${SLASH_COMMAND} help\` lists everything Parley does.`,
      ),
    ],
  };
}

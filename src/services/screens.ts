// What a listener shows one person right away — modals, the App Home, `/parley` replies — read from the database and
// built with the Block Kit builders. Reads only, except saving the settings (services/workspace/change-settings.ts).
import type { HomeView, ModalView } from '@slack/types';
import type { PrismaClient } from '../db/client.js';
import type { NegotiationStatus, PurchaseOrderStatus } from '../generated/prisma/client.js';
import { SIMULATED_SUPPLIERS } from '../config/business-rules.js';
import { approvalsRequired, type PurchaseOrderView, whyCannotApprove } from '../decision/purchase-order-rules.js';
import {
  HOME_HISTORY_MAX,
  buildAppHome,
  type HomeRole,
  buildChannelStatus,
  buildOfferModal,
  buildPoQueryModal,
  buildDraftEditModal,
  buildPoModal,
  buildRejectModal,
  buildCatalogModal,
  buildSettingsModal,
  buildSuppliersModal,
  buildStartModal,
  OFFER_MODAL_LINES_MAX,
  type OfferModalRef,
  type SupplierPoRef,
  type SettingsValues,
  type SlackMessage,
} from '../slack/views/index.js';
import { done, NOT_INSTALLED, refused, type ServiceResult } from './outcome.js';
import { loadCheckpoint } from '../db/stores/negotiation-store.js';
import { MissingCheckpointError } from '../db/stores/checkpoint-store.js';
import { assumedFactsByCode, type SupplierFact } from '../negotiation/facts.js';
import { consentedPremium } from '../negotiation/mandate.js';
import { describeCatalog } from './catalog/describe-catalog.js';
import { describeSuppliers } from './suppliers/connect-supplier.js';
import { getPurchaseOrder } from './purchase-order/get-purchase-order.js';
import { offerFormFor } from './negotiation/submit-supplier-offer.js';
import { supplierPoQueryFormFor } from './purchase-order/supplier-answer.js';
import { draftForEditing } from './negotiation/supplier-drafts.js';
import type { ContextFactory, ServiceContext } from './service-context.js';
import { mayApprove, mayWorkOnQuotation } from './workspace/workspace-settings.js';
import { changeSettings, settingsForEditing } from './workspace/change-settings.js';
import { invitableConnectedSuppliers } from './suppliers/quoted-supplier.js';

export interface ScreensOptions {
  contexts: ContextFactory;
  prisma: PrismaClient;
}

export function createScreens(options: ScreensOptions) {
  const { contexts } = options;
  const inTeam = async <T>(teamId: string, read: (ctx: ServiceContext) => Promise<ServiceResult<T>>) => {
    const ctx = await contexts.forTeam(teamId);
    return ctx ? read(ctx) : NOT_INSTALLED;
  };

  return {
    startModal: (teamId: string, quotationId: string, userId: string) =>
      inTeam<ModalView>(teamId, async (ctx) => {
        const quotation = await ctx.db.quotation.findUnique({
          where: { id: quotationId },
          include: {
            supplier: { select: { name: true, slackChannelId: true, connectionLostAt: true } },
            items: { select: { reviewState: true, totalPrice: true } },
          },
        });
        if (!quotation) return refused('not_found', 'This quotation no longer exists.');
        if (!mayWorkOnQuotation(userId, quotation.uploadedBySlackUserId, ctx.workspace.settings)) {
          return refused('not_allowed', `Only <@${quotation.uploadedBySlackUserId}> and the approvers can start it.`);
        }
        if (quotation.status !== 'ready') {
          return refused('not_ready', 'Finish the review first: every line needs a decision and the supplier a name.');
        }
        const usable = quotation.items.filter(
          (i) => i.reviewState === 'auto_accepted' || i.reviewState === 'confirmed',
        );
        const total = usable.reduce((sum, item) => sum + Number(item.totalPrice ?? 0), 0);
        const { settings } = ctx.workspace;
        // The quoting supplier negotiates as itself in its own channel (begin-negotiation.ts decides the same way);
        // only then can other connected suppliers compete with it, as a simulated side never stands on an award
        // beside a real one.
        const quotingChannel =
          quotation.supplier?.connectionLostAt === null ? (quotation.supplier.slackChannelId ?? null) : null;
        const [connected, others] = await Promise.all([
          ctx.db.supplier.count({
            where: { isSimulated: false, slackChannelId: { not: null }, connectionLostAt: null },
          }),
          quotingChannel === null ? [] : invitableConnectedSuppliers(ctx.db, quotation.supplierId),
        ]);
        return done(
          buildStartModal({
            quotationId,
            defaults: {
              mode: settings.defaultMode,
              rounds: settings.defaultRounds,
              questionBudget: settings.defaultQuestionBudget,
            },
            fileName: quotation.fileName,
            supplierName: quotation.supplier?.name ?? quotation.supplierNameRaw,
            lineCount: usable.length,
            quotedTotal: total > 0 ? Math.round(total * 100) / 100 : null,
            currency: quotation.currency ?? 'USD',
            simulatedSuppliers: SIMULATED_SUPPLIERS.map(({ code, name }) => ({ code, name })),
            hasConnectedSuppliers: connected > 0,
            connectedSuppliers: others.map(({ profile }) => ({ code: profile.code, name: profile.name })),
            quotingSupplierChannel: quotingChannel,
            externalChannel: quotation.slackChannelExternal,
          }),
        );
      }),

    poModal: (teamId: string, purchaseOrderId: string, userId: string) =>
      inTeam<ModalView>(teamId, async (ctx) => {
        const found = await getPurchaseOrder(ctx, { purchaseOrderId });
        if (!found.ok) return found;
        const { po } = found.value;
        const { settings } = ctx.workspace;
        return done(
          buildPoModal({
            po,
            decisionSummary: po.decisionSummary,
            approvalsRequired: approvalsRequired(po, settings.dualApprovalAboveUsd),
            attention: await poAttention(ctx, po),
            viewer: poViewer(po, userId, settings.approvers),
          }),
        );
      }),

    draftEditModal: (teamId: string, ref: { n: string; q: number }, userId: string) =>
      inTeam<ModalView>(teamId, async (ctx) => {
        const draft = await draftForEditing(ctx, { negotiationId: ref.n, sequence: ref.q, by: userId });
        return draft.ok ? done(buildDraftEditModal(draft.value)) : draft;
      }),

    poQueryModal: (teamId: string, ref: SupplierPoRef, userTeamId: string | null) =>
      inTeam<ModalView>(teamId, async (ctx) => {
        const form = await supplierPoQueryFormFor(ctx, { ...ref, byTeamId: userTeamId });
        return form.ok ? done(buildPoQueryModal(form.value)) : form;
      }),

    offerModal: (teamId: string, ref: OfferModalRef, userTeamId: string | null) =>
      inTeam<ModalView>(teamId, async (ctx) => {
        const form = await offerFormFor(ctx, {
          negotiationId: ref.n,
          negotiationSupplierId: ref.s,
          round: ref.r,
          byTeamId: userTeamId,
        });
        if (!form.ok) return form;
        const view = buildOfferModal(form.value);
        return view
          ? done(view)
          : refused(
              'invalid_input',
              `This request has more lines than the offer form takes (${OFFER_MODAL_LINES_MAX}): write to the ` +
                'buyer in the thread instead.',
            );
      }),

    rejectModal: (teamId: string, ref: { po: string; v: number }, userId: string) =>
      inTeam<ModalView>(teamId, async (ctx) => {
        if (!mayApprove(userId, ctx.workspace.settings)) {
          return refused('not_allowed', 'Only the approvers can reject a purchase order.');
        }
        const found = await getPurchaseOrder(ctx, { purchaseOrderId: ref.po });
        if (!found.ok) return found;
        const { po } = found.value;
        return done(buildRejectModal({ poId: po.id, poNumber: po.number, version: ref.v }));
      }),

    home: async (teamId: string, userId: string): Promise<HomeView | null> => {
      const ctx = await contexts.forTeam(teamId);
      return ctx ? homeView(ctx, userId) : null;
    },

    channelStatus: async (teamId: string, channelId: string): Promise<SlackMessage> => {
      const ctx = await contexts.forTeam(teamId);
      const quotations = ctx
        ? await ctx.db.quotation.findMany({
            where: { slackChannelId: channelId },
            orderBy: { createdAt: 'desc' },
            take: 20,
            include: { negotiation: { select: { status: true, currentRound: true, maxRounds: true } } },
          })
        : [];
      return buildChannelStatus({
        negotiations: quotations.map((q) => ({
          title: q.fileName,
          stage: q.negotiation
            ? `${q.negotiation.status} · round ${q.negotiation.currentRound} of ${q.negotiation.maxRounds}`
            : (QUOTATION_STAGE[q.status] ?? q.status),
          permalink: threadLink(q.slackChannelId, q.slackThreadTs),
        })),
      });
    },

    settingsModal: (teamId: string, userId: string) =>
      inTeam<ModalView>(teamId, async (ctx) => {
        const editing = await settingsForEditing(ctx, userId);
        if (!editing.ok) return editing;
        const { version, brandName } = editing.value;
        return done(buildSettingsModal({ ...ctx.workspace.settings, brandName, version }));
      }),

    saveSettings: (teamId: string, userId: string, values: SettingsValues, basedOnVersion: number) =>
      inTeam(teamId, (ctx) => changeSettings(ctx, { by: userId, values, basedOnVersion })),

    catalogModal: (teamId: string, userId: string) =>
      inTeam<ModalView>(teamId, async (ctx) => {
        const described = await describeCatalog(ctx, { by: userId });
        return described.ok ? done(buildCatalogModal(described.value)) : described;
      }),

    /** With a quotation (its review card's Connect button): that quotation's supplier listed first and picked. */
    suppliersModal: (teamId: string, userId: string, forQuotation: string | null = null) =>
      inTeam<ModalView>(teamId, async (ctx) => {
        const quotation =
          forQuotation === null
            ? null
            : await ctx.db.quotation.findUnique({ where: { id: forQuotation }, select: { supplierId: true } });
        if (forQuotation !== null && !quotation) return refused('not_found', 'This quotation no longer exists.');
        const preselected = quotation?.supplierId ?? null;
        const suppliers = await describeSuppliers(ctx, userId, preselected);
        if (!suppliers.ok) return suppliers;
        return done(
          buildSuppliersModal({ brandName: ctx.workspace.brandName, suppliers: suppliers.value, preselected }),
        );
      }),

    quotationChannel: async (teamId: string, quotationId: string) => {
      const ctx = await contexts.forTeam(teamId);
      const row = await ctx?.db.quotation.findUnique({ where: { id: quotationId }, select: { slackChannelId: true } });
      return row?.slackChannelId ?? null;
    },

    purchaseOrderChannel: async (teamId: string, purchaseOrderId: string) => {
      const ctx = await contexts.forTeam(teamId);
      const row = await ctx?.db.purchaseOrder.findUnique({
        where: { id: purchaseOrderId },
        select: { negotiation: { select: { quotation: { select: { slackChannelId: true } } } } },
      });
      return row?.negotiation.quotation.slackChannelId ?? null;
    },
  };
}
export type Screens = ReturnType<typeof createScreens>;

const QUOTATION_STAGE: Record<string, string> = {
  received: 'Reading the file',
  parsing: 'Reading the file',
  review: 'Waiting for review',
  ready: 'Ready to negotiate',
  negotiating: 'Negotiating',
  completed: 'Decided',
  failed: 'Could not be read',
};

/** A link that opens a thread in Slack (Slack redirects it to the workspace). */
export function threadLink(channelId: string, ts: string | null): string | null {
  return ts ? `https://slack.com/archives/${channelId}/p${ts.replace('.', '')}` : null;
}

/** Words for a fact Parley assumed (negotiation/facts.ts SUPPLIER_FACTS). */
const FACT_WORDS: Record<SupplierFact, string> = {
  leadTimeDays: 'lead time',
  paymentTerms: 'payment terms',
  onTimeDeliveryRate: 'on-time rate',
  defectRate: 'defect rate',
  qualityRating: 'quality rating',
};

/**
 * What the PO modal's alert names besides dual approval: the premium the buyer consented to, and each awarded
 * supplier's figures that are still Parley's assumptions — read from the negotiation's checkpoint.
 */
async function poAttention(ctx: ServiceContext, po: PurchaseOrderView) {
  // A PO whose negotiation saved no checkpoint (made outside a run) still opens: the alert has nothing more to say.
  const checkpoint = await loadCheckpoint(ctx.db, po.negotiationId).catch((error: unknown) => {
    if (error instanceof MissingCheckpointError) return null;
    throw error;
  });
  if (!checkpoint) return { premiumOverQuote: null, assumptions: [] };
  const { state } = checkpoint;
  const assumed = assumedFactsByCode(state.assumptions);
  const awarded = new Set(po.allocations.map((a) => a.supplierName));
  const assumptions = state.profiles
    .filter((profile) => awarded.has(profile.name))
    .flatMap((profile) => (assumed[profile.code] ?? []).map((fact) => `${profile.name}: ${FACT_WORDS[fact] ?? fact}`));
  return { premiumOverQuote: consentedPremium(state.mandate), assumptions };
}

function poViewer(po: PurchaseOrderView, userId: string, approvers: readonly string[]) {
  const reason = whyCannotApprove(po, userId, approvers);
  return reason === null ? { canApprove: true } : { canApprove: false, reason };
}

/** One person's App Home, as it stands in the database. */
export async function homeView(ctx: ServiceContext, userId: string): Promise<HomeView> {
  return buildAppHome(await homeModel(ctx, userId));
}

/** The App Home's lists for one person. */
async function homeModel(ctx: ServiceContext, userId: string) {
  const isApprover = mayApprove(userId, ctx.workspace.settings);
  const negotiations = await ctx.db.negotiation.findMany({
    where: {
      status: { in: ['negotiating', 'paused', 'curveball', 'deciding'] },
      ...(isApprover ? {} : { quotation: { uploadedBySlackUserId: userId } }),
    },
    orderBy: { updatedAt: 'desc' },
    take: 30,
    // Only what the Home shows: a negotiation's row also holds its checkpoint (megabytes for a 3,000-line quotation),
    // which every Home opened would read and parse.
    select: {
      status: true,
      currentRound: true,
      maxRounds: true,
      quotation: { select: { fileName: true, slackChannelId: true, slackThreadTs: true } },
    },
  });
  const questions = await ctx.db.pendingQuestion.findMany({
    // The questions are put to the buyer who started the negotiation (src/thread/thread.ts questionAddressee).
    where: { status: 'open', negotiation: { startedBySlackUserId: userId } },
    orderBy: { askedAt: 'asc' },
    take: 30,
    include: {
      negotiation: { select: { quotation: { select: { fileName: true, slackChannelId: true, slackThreadTs: true } } } },
    },
  });
  const pos = isApprover
    ? await ctx.db.purchaseOrder.findMany({
        where: { status: 'draft', approvals: { none: { approverSlackUserId: userId } } },
        orderBy: { createdAt: 'asc' },
        take: 30,
        include: {
          negotiation: {
            select: { quotation: { select: { fileName: true, slackChannelId: true, slackThreadTs: true } } },
          },
          allocations: { select: { supplier: { select: { name: true } } } },
          _count: { select: { approvals: true } },
        },
      })
    : [];
  const history = await homeHistory(ctx, isApprover ? null : userId);
  const required = (po: (typeof pos)[number]) =>
    approvalsRequired(
      { currency: po.currency, effectiveLandedCost: Number(po.effectiveLandedCost) },
      ctx.workspace.settings.dualApprovalAboveUsd,
    );
  const { approvers } = ctx.workspace.settings;
  const role: HomeRole = isApprover ? 'approver' : approvers.length === 0 ? 'no_approver_yet' : 'member';
  return {
    userId,
    role,
    negotiations: negotiations.map((n) => ({
      title: n.quotation.fileName,
      stage:
        n.status === 'paused'
          ? `Waiting for an answer · round ${n.currentRound} of ${n.maxRounds}`
          : `Negotiating · round ${n.currentRound} of ${n.maxRounds}`,
      permalink: threadLink(n.quotation.slackChannelId, n.quotation.slackThreadTs),
    })),
    questions: questions.map((q) => ({
      askedBy: q.negotiation.quotation.fileName,
      question: q.question,
      permalink: threadLink(q.negotiation.quotation.slackChannelId, q.negotiation.quotation.slackThreadTs),
    })),
    purchaseOrders: pos.map((po) => ({
      number: po.number,
      supplierNames: po.allocations.map((a) => a.supplier.name),
      total: Number(po.effectiveLandedCost),
      currency: po.currency,
      approvals: `${po._count.approvals} of ${required(po)} approvals`,
      permalink: threadLink(po.negotiation.quotation.slackChannelId, po.negotiation.quotation.slackThreadTs),
    })),
    ...history,
  };
}

/** The statuses a negotiation ends in, as the App Home's history says them. */
const ENDED_NEGOTIATION = new Map<NegotiationStatus, string>([
  ['completed', 'Completed'],
  ['cancelled', 'Cancelled'],
  ['expired', 'Expired'],
  ['failed', 'Failed'],
]);

const PURCHASE_ORDER_STATUS = new Map<PurchaseOrderStatus, string>([
  ['draft', 'Waiting for approval'],
  ['approved', 'Approved'],
  ['rejected', 'Rejected'],
]);

/**
 * The App Home's history: negotiations that have ended and the purchase orders drafted (a superseded draft, replaced
 * by the award the buyer accepted, is left out), newest first. `uploadedBy`: only that person's quotations (anyone
 * but an approver); null for all.
 */
async function homeHistory(ctx: ServiceContext, uploadedBy: string | null) {
  const theirs = uploadedBy === null ? {} : { quotation: { uploadedBySlackUserId: uploadedBy } };
  const thread = { select: { fileName: true, slackChannelId: true, slackThreadTs: true } } as const;
  const negotiations = await ctx.db.negotiation.findMany({
    where: { status: { in: [...ENDED_NEGOTIATION.keys()] }, ...theirs },
    orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
    take: HOME_HISTORY_MAX,
    // Not the checkpoint (see homeModel).
    select: {
      status: true,
      completedAt: true,
      updatedAt: true,
      quotation: { select: { ...thread.select, supplierNameRaw: true, supplier: { select: { name: true } } } },
      purchaseOrders: {
        where: { status: { not: 'superseded' } },
        orderBy: { createdAt: 'desc' },
        take: 1,
        select: { number: true, effectiveLandedCost: true, currency: true },
      },
    },
  });
  const purchaseOrders = await ctx.db.purchaseOrder.findMany({
    where: { status: { not: 'superseded' }, ...(uploadedBy === null ? {} : { negotiation: theirs }) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: HOME_HISTORY_MAX,
    include: {
      negotiation: { select: { quotation: thread } },
      allocations: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], select: { supplier: { select: { name: true } } } },
    },
  });
  return {
    pastNegotiations: negotiations.map((n) => {
      const po = n.purchaseOrders[0];
      return {
        title: n.quotation.fileName,
        supplierName: n.quotation.supplier?.name ?? n.quotation.supplierNameRaw,
        status: ENDED_NEGOTIATION.get(n.status) ?? n.status,
        award: po ? { poNumber: po.number, total: Number(po.effectiveLandedCost), currency: po.currency } : null,
        at: n.completedAt ?? n.updatedAt,
        permalink: threadLink(n.quotation.slackChannelId, n.quotation.slackThreadTs),
      };
    }),
    pastPurchaseOrders: purchaseOrders.map((po) => ({
      number: po.number,
      status: PURCHASE_ORDER_STATUS.get(po.status) ?? po.status,
      total: Number(po.effectiveLandedCost),
      currency: po.currency,
      // A split award lists each supplier once.
      supplierNames: [...new Set(po.allocations.map((a) => a.supplier.name))],
      at: po.approvedAt ?? po.rejectedAt ?? po.createdAt,
      permalink: threadLink(po.negotiation.quotation.slackChannelId, po.negotiation.quotation.slackThreadTs),
    })),
  };
}

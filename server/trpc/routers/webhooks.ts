// The console's Webhooks page: endpoints (a secret shown once, rotation), their deliveries (status, latency, response,
// resend), the seller's alerts and the per-plan credit thresholds. Every procedure is scoped to the session's seller.
import { z } from "zod";
import { listSellerAlerts } from "../../alerts/list-alerts";
import { EVENTS, EVENT_TYPES, webhookEndpointView } from "../../contracts/events";
import { listCreditThresholds, setCreditThreshold } from "../../events/manage-credit-thresholds";
import { getWebhookDelivery, listWebhookDeliveries, resendWebhookDelivery } from "../../webhooks/list-deliveries";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  endpointChange,
  endpointInput,
  listWebhookEndpoints,
  rotateWebhookSecret,
  updateWebhookEndpoint,
} from "../../webhooks/manage-endpoints";
import { router, sellerProcedure } from "../init";

const id = z.string().min(1).max(64);
const iso = z.string();
const deliveryStatus = z.enum(["pending", "succeeded", "failed"]);

const endpointOut = webhookEndpointView.extend({ created_at: iso, previous_secret_expires_at: iso.nullable() });
const endpointWithStats = endpointOut.extend({
  pending: z.number().int(),
  failed_24h: z.number().int(),
  last_delivery: z.object({ status: z.string(), at: iso }).nullable(),
});
const withSecret = z.object({ endpoint: endpointOut, secret: z.string() });

const deliveryRow = z.object({
  id: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  status: deliveryStatus,
  attempts: z.number().int(),
  nextAttemptAt: iso.nullable(),
  lastAttemptAt: iso.nullable(),
  lastStatus: z.number().int().nullable(),
  lastLatencyMs: z.number().int().nullable(),
  lastResponse: z.string().nullable(),
  lastError: z.string().nullable(),
  deliveredAt: iso.nullable(),
  createdAt: iso,
});

const deliveryDetail = z.object({
  id: z.string(),
  endpointId: z.string(),
  status: deliveryStatus,
  attempts: z.number().int(),
  payload: z.string(),
  attemptLog: z.array(
    z.object({
      at: iso,
      instance: z.string(),
      status: z.number().int().nullable(),
      latencyMs: z.number().int(),
      response: z.string().nullable(),
      error: z.string().nullable(),
    }),
  ),
});

const alertRow = z.object({
  id: z.string(),
  kind: z.string(),
  subject: z.string(),
  status: z.enum(["open", "resolved"]),
  message: z.string(),
  openedAt: iso,
  resolvedAt: iso.nullable(),
  notifiedAt: iso.nullable(),
});

const thresholdRow = z.object({ planId: z.string(), slug: z.string(), name: z.string(), status: z.string(), thresholdUsd: z.string().nullable() });

export const webhooksRouter = router({
  eventTypes: sellerProcedure
    .output(z.array(z.object({ type: z.string(), about: z.string() })))
    .query(() => EVENT_TYPES.map((type) => ({ type, about: EVENTS[type].about }))),
  endpoints: sellerProcedure.output(z.array(endpointWithStats)).query(({ ctx }) => listWebhookEndpoints(ctx.seller.id)),
  createEndpoint: sellerProcedure
    .input(endpointInput)
    .output(withSecret)
    .mutation(({ ctx, input }) => createWebhookEndpoint({ sellerId: ctx.seller.id, actorId: ctx.seller.userId, input })),
  updateEndpoint: sellerProcedure
    .input(endpointChange)
    .output(endpointOut)
    .mutation(({ ctx, input }) => updateWebhookEndpoint({ sellerId: ctx.seller.id, actorId: ctx.seller.userId, change: input })),
  rotateSecret: sellerProcedure
    .input(z.object({ id }))
    .output(withSecret)
    .mutation(({ ctx, input }) => rotateWebhookSecret({ sellerId: ctx.seller.id, actorId: ctx.seller.userId, id: input.id })),
  deleteEndpoint: sellerProcedure
    .input(z.object({ id }))
    .output(z.object({ id: z.string(), deleted: z.literal(true) }))
    .mutation(({ ctx, input }) => deleteWebhookEndpoint({ sellerId: ctx.seller.id, actorId: ctx.seller.userId, id: input.id })),
  deliveries: sellerProcedure
    .input(z.object({ endpointId: id, status: deliveryStatus.optional(), cursor: z.string().max(100).nullish() }))
    .output(z.object({ deliveries: z.array(deliveryRow), nextCursor: z.string().nullable() }))
    .query(({ ctx, input }) => listWebhookDeliveries({ sellerId: ctx.seller.id, ...input })),
  delivery: sellerProcedure
    .input(z.object({ id }))
    .output(deliveryDetail)
    .query(({ ctx, input }) => getWebhookDelivery({ sellerId: ctx.seller.id, id: input.id })),
  resend: sellerProcedure
    .input(z.object({ id }))
    .output(z.object({ id: z.string(), status: z.literal("pending") }))
    .mutation(({ ctx, input }) => resendWebhookDelivery({ sellerId: ctx.seller.id, actorId: ctx.seller.userId, id: input.id })),
  alerts: sellerProcedure.output(z.array(alertRow)).query(({ ctx }) => listSellerAlerts(ctx.seller.id)),
  creditThresholds: sellerProcedure.output(z.array(thresholdRow)).query(({ ctx }) => listCreditThresholds(ctx.seller.id)),
  setCreditThreshold: sellerProcedure
    .input(z.object({ planId: id, thresholdUsd: z.string().max(20).nullable() }))
    .output(z.object({ planId: z.string(), thresholdUsd: z.string().nullable() }))
    .mutation(({ ctx, input }) => setCreditThreshold({ sellerId: ctx.seller.id, actorId: ctx.seller.userId, ...input })),
});

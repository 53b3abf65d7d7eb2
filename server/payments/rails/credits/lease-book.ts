// An instance's leases of plan credit (README "Leased credit"): per credential and meter, one live lease, taken from
// the grants by one statement, spent from memory, closed when its calls or its time run out or a notice names it, and
// returned (what it did not spend back to its grant) once its calls in flight have ended; the next one is asked for
// when the live one is down to a quarter (./lease-timing.ts RENEW_AHEAD) and waits its turn. Spent calls are written
// in batches, with the next lease taken or a second later (./leases.queries.ts `syncLeases`), so a covered call at
// steady state costs PostgreSQL one write transaction per lease, not one per call.
// Leases are used only while the instance hears both notices (controls, catalog): a lost connection closes them all.
import { newId } from "../../../lib/ids";
import { CONTENDED_TRIES, contendedBackOffMs, NO_LEASE_MS, RECORD_DELAY_MS, RENEW_AHEAD } from "./lease-timing";
import { lostLockRace, syncLeases, type LeaseAsk, type LeasedCall, type SyncResult } from "./leases.queries";

/** What a call needs to spend from a lease. */
export type LeaseRequest = Omit<LeaseAsk, "leaseId" | "instanceId"> & Pick<LeasedCall, "method" | "path" | "query" | "operationKey" | "transport">;

export type LeaseTake = { paymentId: string; leaseId: string; balanceMicros: bigint };

type Lease = {
  id: string;
  key: string;
  sellerId: string;
  credentialId: string;
  /** The credential's person (from the database, whatever the token says): `h:` notices name it. */
  humanId: string | null;
  /** The grant it was taken from: `g:` notices (the grant ended early, its purchase refunded) name it. */
  grantId: string;
  available: bigint;
  /** What it was taken with (a quarter of it left: the pool's next lease is asked for ahead, RENEW_AHEAD). */
  amount: bigint;
  /** Grants' balance beside the lease when it was taken (what `balance_usd` adds the lease's rest to). */
  balanceMicros: bigint;
  deadline: number;
  inflight: number;
  /** Records of it in a statement on its way: it returns after they land. */
  writing: number;
  closed: boolean;
  returning: boolean;
  timer: NodeJS.Timeout | null;
};

type Spent = { lease: Lease; call: Omit<LeasedCall, "units" | "upstreamStatus" | "receipt" | "servedAt"> };

export class LeaseBook {
  readonly instanceId = newId("ins");
  private listeningTo = new Set<string>();
  private live = new Map<string, Lease>();
  /** A pool's lease taken ahead (RENEW_AHEAD): spent once its live one runs out. */
  private next = new Map<string, Lease>();
  private unreturned = new Map<string, Lease>();
  private acquiring = new Map<string, Promise<void>>();
  private noLease = new Map<string, number>();
  /** Consecutive rounds of CONTENDED_TRIES lost statements per pool. */
  private contendedRounds = new Map<string, number>();
  private spent = new Map<string, Spent>();
  private records: LeasedCall[] = [];
  private returns: string[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  /** Every statement in flight (a lease statement may start while a flush's is out: a flush waits for all of them). */
  private syncs = new Set<Promise<void>>();
  private urgent = false;
  /**
   * Statements sent, leases taken, calls spent from them (tests and the bench); `retried`: lease statements that lost to
   * a concurrent one and were sent again at once; `contendedBackOffs`: times a pool lost CONTENDED_TRIES statements in
   * a row and went per call for a few milliseconds; `backedOff`: times a pool went per call for NO_LEASE_MS.
   */
  readonly stats = { statements: 0, leases: 0, calls: 0, retried: 0, contendedBackOffs: 0, backedOff: 0 };

  /** A channel's state (the instance's LISTEN on it): leases serve only while every channel listens. */
  setListening(channel: string, listening: boolean): void {
    if (listening) this.listeningTo.add(channel);
    else {
      this.listeningTo.delete(channel);
      this.closeWhere(() => true);
    }
  }

  get listening(): boolean {
    return this.listeningTo.size >= 2;
  }

  /**
   * `human_controls_changed`: `c:<credential>`, `h:<human>`, `g:<grant>` (a grant ended early: its purchase refunded);
   * anything else (`w:<seller>`, a reset) closes everything.
   */
  onControls(payload: string): void {
    const [kind, id] = [payload.slice(0, 2), payload.slice(2)];
    this.noLease.clear();
    if (kind === "c:") this.closeWhere((l) => l.credentialId === id);
    else if (kind === "h:") this.closeWhere((l) => l.humanId === id);
    else if (kind === "g:") this.closeWhere((l) => l.grantId === id);
    else this.closeWhere(() => true);
  }

  /** `catalog_changed` (a plan edit, a price, the lease settings): the seller's leases end. */
  onCatalog(sellerId: string): void {
    this.noLease.clear();
    this.closeWhere((l) => sellerId === "" || l.sellerId === sellerId);
  }

  /** Spend the call's price from this credential's lease on its meter, taking one if needed; null: the per-call path. */
  async take(r: LeaseRequest): Promise<LeaseTake | null> {
    const key = `${r.sellerId} ${r.credentialId} ${r.humanId ?? ""} ${r.meterKey}`;
    // Each lease taken serves at least the first call waiting for it, so waiting for the next one always progresses;
    // when none can be taken (noLease), the call goes the per-call way.
    for (let attempt = 0; attempt < 1_000 && this.listening; attempt++) {
      const lease = this.usable(key, r.priceMicros);
      const noLease = (this.noLease.get(key) ?? 0) > Date.now();
      if (lease) {
        lease.available -= r.priceMicros;
        lease.inflight++;
        const paymentId = newId("pay");
        const { sellerId, credentialId, meterKey, priceMicros, method, path, query, operationKey, transport } = r;
        const call = { paymentId, leaseId: lease.id, sellerId, credentialId, meterKey, priceMicros, method, path, query, operationKey, transport };
        this.spent.set(paymentId, { lease, call });
        this.stats.calls++;
        if (lease.available * RENEW_AHEAD <= lease.amount && !noLease && !this.next.has(key)) void this.askFor(key, r);
        return { paymentId, leaseId: lease.id, balanceMicros: lease.balanceMicros + lease.available };
      }
      if (noLease) return null;
      await this.askFor(key, r);
    }
    return null;
  }

  /** The pool's lease that covers the price: the live one, or else the one taken ahead (then live); null when neither. */
  private usable(key: string, priceMicros: bigint): Lease | null {
    for (;;) {
      const live = this.live.get(key);
      if (live && !live.closed && Date.now() < live.deadline && live.available >= priceMicros) return live;
      if (live) this.close(live);
      const ahead = this.next.get(key);
      if (!ahead) return null;
      this.next.delete(key);
      this.live.set(key, ahead);
    }
  }

  /** The pool's lease statement in flight, or a new one. */
  private askFor(key: string, r: LeaseRequest): Promise<void> {
    const p = this.acquiring.get(key) ?? this.acquire(key, r).finally(() => this.acquiring.delete(key));
    this.acquiring.set(key, p);
    return p;
  }

  /** A leased call was served: recorded with the next batch. False: not a leased call (the caller captures it). */
  record(paymentId: string, served: { units: number; upstreamStatus: number; receipt: string | null }): boolean {
    const s = this.spent.get(paymentId);
    if (!s) return false;
    this.spent.delete(paymentId);
    this.records.push({ ...s.call, ...served, servedAt: new Date() });
    s.lease.inflight--;
    this.maybeReturn(s.lease);
    this.scheduleFlush();
    return true;
  }

  /** A leased call was not served: its price goes back to the lease. False: not a leased call. */
  release(paymentId: string): boolean {
    const s = this.spent.get(paymentId);
    if (!s) return false;
    this.spent.delete(paymentId);
    s.lease.available += s.call.priceMicros;
    s.lease.inflight--;
    this.maybeReturn(s.lease);
    return true;
  }

  /** What this instance holds of a credential's credit now (entitlements read the database's account). */
  leaseCount(): number {
    return this.live.size + this.next.size;
  }

  /** Write every spent call and return every lease (shutdown, tests): nothing is held by this instance after it. */
  async returnAll(): Promise<void> {
    this.closeWhere(() => true);
    await this.flush();
  }

  /** Write what is pending now (records, returns of leases that are done). */
  async flush(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    for (let i = 0; i < 10 && (this.syncs.size || this.records.length || this.returns.length); i++) {
      if (this.syncs.size) await Promise.all(this.syncs);
      else await this.sync(null).catch(() => {});
    }
  }

  /** A crash, for tests: everything held is forgotten unwritten and unreturned (the reconciler returns it). */
  abandon(): void {
    for (const l of this.unreturned.values()) if (l.timer) clearTimeout(l.timer);
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.live.clear();
    this.next.clear();
    this.unreturned.clear();
    this.spent.clear();
    this.records = [];
    this.returns = [];
    this.listeningTo.clear();
  }

  /** Take a lease for the pool: a statement that lost to a concurrent one is sent again at once, bounded. */
  private async acquire(key: string, r: LeaseRequest): Promise<void> {
    for (let tries = 1; ; tries++) {
      const ask: LeaseAsk = { ...r, leaseId: newId("lea"), instanceId: this.instanceId };
      const t0 = Date.now();
      let got: SyncResult["lease"];
      try {
        got = (await this.sync(ask)).lease;
      } catch (e) {
        got = lostLockRace(e) ? { type: "contended" } : null;
      }
      if (got?.type !== "contended") this.contendedRounds.delete(key);
      if (got?.type === "leased") return this.open(key, r, ask.leaseId, t0, got);
      if (got?.type === "contended" && tries < CONTENDED_TRIES && this.listening) {
        this.stats.retried++;
        continue;
      }
      if (got?.type === "contended") {
        const round = (this.contendedRounds.get(key) ?? 0) + 1;
        this.contendedRounds.set(key, round);
        this.stats.contendedBackOffs++;
        this.noLease.set(key, Date.now() + contendedBackOffMs(round));
        return;
      }
      // Not covered, not leasable, the credential refused, or the database failing: per call for a while.
      this.stats.backedOff++;
      this.noLease.set(key, Date.now() + NO_LEASE_MS);
      return;
    }
  }

  private open(key: string, r: LeaseRequest, id: string, t0: number, got: Extract<SyncResult["lease"], { type: "leased" }>): void {
    // The instance's own clock from before the statement: it stops spending before the database's expires_at.
    const lease: Lease = {
      id,
      key,
      sellerId: r.sellerId,
      credentialId: r.credentialId,
      humanId: got.credentialHumanId,
      grantId: got.grantId,
      available: got.amountMicros,
      amount: got.amountMicros,
      balanceMicros: got.balanceMicros,
      deadline: t0 + got.ms,
      inflight: 0,
      writing: 0,
      closed: false,
      returning: false,
      timer: null,
    };
    lease.timer = setTimeout(() => this.close(lease), got.ms);
    lease.timer.unref?.();
    this.stats.leases++;
    // Taken ahead while the live one still serves: it waits its turn.
    const live = this.live.get(key);
    if (live && !live.closed) this.next.set(key, lease);
    else this.live.set(key, lease);
    this.unreturned.set(lease.id, lease);
  }

  /** One statement: the records and returns pending now, and the ask. Failed: they are kept for the next one. */
  private async sync(ask: LeaseAsk | null) {
    const records = this.records.splice(0);
    const returns = this.returns.splice(0);
    this.urgent = false;
    // This statement carries everything pending: the timer waits for what comes next (at steady state, the next
    // lease's statement carries it, and the timer never fires).
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    const leases = records.map((c) => this.unreturned.get(c.leaseId)).filter((l): l is Lease => l !== undefined);
    for (const l of leases) l.writing++;
    this.stats.statements++;
    const run = syncLeases(records, returns, ask);
    const done = run.then(
      () => {
        for (const id of returns) this.unreturned.delete(id);
      },
      () => {
        this.records.unshift(...records);
        this.returns.unshift(...returns);
      },
    );
    this.syncs.add(done);
    try {
      return await run;
    } finally {
      await done;
      this.syncs.delete(done);
      for (const l of leases) {
        l.writing--;
        this.maybeReturn(l);
      }
      if (this.records.length || this.returns.length) this.scheduleFlush();
    }
  }

  private close(lease: Lease): void {
    if (lease.timer) clearTimeout(lease.timer);
    lease.timer = null;
    lease.closed = true;
    if (this.live.get(lease.key) === lease) this.live.delete(lease.key);
    if (this.next.get(lease.key) === lease) this.next.delete(lease.key);
    this.maybeReturn(lease);
  }

  private closeWhere(pred: (l: Lease) => boolean): void {
    for (const l of [...this.live.values(), ...this.next.values()]) if (pred(l)) this.close(l);
  }

  private maybeReturn(lease: Lease): void {
    if (!lease.closed || lease.returning || lease.inflight > 0 || lease.writing > 0) return;
    lease.returning = true;
    this.returns.push(lease.id);
    // Credit left idle goes back at once; a spent-out lease rides with the next statement (the next lease, as a rule).
    if (lease.available > 0n) this.urgent = true;
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.flushTimer && this.urgent) {
      clearTimeout(this.flushTimer);
      this.flushTimer = null;
    }
    if (this.flushTimer) return;
    // A lease to return goes soon; spent calls wait for a statement to ride with.
    this.flushTimer = setTimeout(
      () => {
        this.flushTimer = null;
        if (this.syncs.size) return this.scheduleFlush();
        if (!this.records.length && !this.returns.length) return;
        void this.sync(null).catch((e) => console.error("[credits] lease sync failed, retrying:", e instanceof Error ? e.message : e));
      },
      this.urgent ? 0 : RECORD_DELAY_MS,
    );
    this.flushTimer.unref?.();
  }
}

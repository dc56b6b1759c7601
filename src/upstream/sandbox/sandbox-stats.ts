export interface BaseTraffic {
  requests: number;
  rateLimited: number;
}

/** Counters over non-control requests that passed authentication. */
export class SandboxStats {
  requests = 0;
  rateLimited = 0;
  faultsInjected = 0;
  readonly byBase = new Map<string, BaseTraffic>();

  recordRequest(baseId: string | undefined): void {
    this.requests++;
    if (baseId !== undefined) this.traffic(baseId).requests++;
  }

  recordRateLimited(baseId: string | undefined): void {
    this.rateLimited++;
    if (baseId !== undefined) this.traffic(baseId).rateLimited++;
  }

  recordFault(): void {
    this.faultsInjected++;
  }

  reset(): void {
    this.requests = 0;
    this.rateLimited = 0;
    this.faultsInjected = 0;
    this.byBase.clear();
  }

  private traffic(baseId: string): BaseTraffic {
    let traffic = this.byBase.get(baseId);
    if (!traffic) {
      traffic = { requests: 0, rateLimited: 0 };
      this.byBase.set(baseId, traffic);
    }
    return traffic;
  }
}

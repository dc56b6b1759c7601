export interface BaseTraffic {
  requests: number;
  rateLimited: number;
}

/** One request as it arrived, for tests that check what a client asked for. */
export interface LoggedRequest {
  method: string;
  path: string;
  /** The parsed query (GET) or JSON body (POST listRecords) fields that select data. */
  fields?: string[];
}

const REQUEST_LOG_SIZE = 1_000;

/** Counters over non-control requests that passed authentication. */
export class SandboxStats {
  requests = 0;
  rateLimited = 0;
  faultsInjected = 0;
  readonly byBase = new Map<string, BaseTraffic>();
  /** The latest requests, oldest first, at most REQUEST_LOG_SIZE. */
  readonly recent: LoggedRequest[] = [];

  recordRequest(baseId: string | undefined, request?: LoggedRequest): void {
    this.requests++;
    if (baseId !== undefined) this.traffic(baseId).requests++;
    if (request) {
      this.recent.push(request);
      if (this.recent.length > REQUEST_LOG_SIZE) this.recent.shift();
    }
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
    this.recent.length = 0;
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

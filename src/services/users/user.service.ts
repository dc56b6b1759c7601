import { randomUUID } from 'node:crypto';
import type { DataSource, Repository } from 'typeorm';
import { hashPassword, passwordProblem, verifyAgainstDecoy, verifyPassword } from '../credentials/password.js';
import { csrfTokenOf, generateToken, hashToken } from '../credentials/session-token.js';
import { Account, SetPasswordToken, User } from '../../entities/index.js';
import { AppError, conflict, invalidRequest, notFound, unauthorized } from '../../errors.js';
import { markLinkUsed } from '../../repositories/set-password-token.repository.js';
import type { AccountSummary } from '../account.service.js';
import type { SessionService, SessionView, UserSummary } from './session.service.js';

const SET_PASSWORD_LINK_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** A new session: the token goes into the cookie, the view into the response body. */
export interface SignedIn {
  token: string;
  view: SessionView;
}

export interface UserServiceOptions {
  /** SIGNUP=open: anyone may create an account with a user; closed: only the CLI makes users. */
  signupOpen: boolean;
  /** The web application's address, for set-password links. */
  publicUrl: string;
}

/** The web application's users: sign-up, sign-in, passwords, and the operator's set-password links. */
export class UserService {
  private readonly users: Repository<User>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly sessions: SessionService,
    private readonly options: UserServiceOptions,
  ) {
    this.users = dataSource.getRepository(User);
  }

  /** A new account owned by a new user, signed in. */
  async signUp(input: { email: string; password: string; accountName?: string }, userAgent?: string): Promise<SignedIn> {
    if (!this.options.signupOpen) {
      // CONTRACT §1 has no code for a closed door: closed, the endpoint is as absent as an unknown route.
      throw new AppError('not_found', 'Sign-up is closed on this installation: an operator creates users with the CLI');
    }
    requireGoodPassword(input.password, input.email);
    if (await this.users.existsBy({ email: input.email })) throw conflict('A user with this e-mail exists already');
    const passwordHash = await hashPassword(input.password);
    const { user, account } = await this.saveUnlessTaken(() =>
      this.dataSource.transaction(async (manager) => {
        const account = await manager.save(Account, { id: randomUUID(), name: input.accountName ?? input.email, createdAt: new Date() });
        const user = await manager.save(User, newUser(account.id, input.email, passwordHash));
        return { user, account: { id: account.id, name: account.name } };
      }),
    );
    return this.startSession(user, account, userAgent);
  }

  /** The same 401 for an unknown e-mail, a wrong password and a user without a password yet, after the same work. */
  async signIn(input: { email: string; password: string }, userAgent?: string): Promise<SignedIn> {
    const user = await this.users.findOneBy({ email: input.email });
    const valid = user?.passwordHash ? await verifyPassword(input.password, user.passwordHash) : await verifyAgainstDecoy(input.password);
    if (!user || !valid) throw unauthorized('Wrong e-mail or password');
    return this.startSession(user, await this.accountOf(user), userAgent);
  }

  /** Ends every session of the user, this one included, and signs this browser in again. */
  async changePassword(userId: string, input: { currentPassword: string; newPassword: string }, userAgent?: string): Promise<SignedIn> {
    const user = await this.users.findOneBy({ id: userId });
    if (!user) throw unauthorized();
    const valid = user.passwordHash ? await verifyPassword(input.currentPassword, user.passwordHash) : false;
    if (!valid) throw invalidRequest('currentPassword: wrong password');
    requireGoodPassword(input.newPassword, user.email);
    await this.storePassword(user, input.newPassword);
    return this.startSession(user, await this.accountOf(user), userAgent);
  }

  /**
   * The operator's user (CLI): owner of an existing account, or of a new one named after the e-mail. Answers a
   * one-time link to set the password (24 hours); only its hash is stored.
   */
  async createByOperator(
    email: string,
    accountId?: string,
  ): Promise<{ user: UserSummary; account: AccountSummary; setPasswordUrl: string; expiresAt: Date }> {
    if (await this.users.existsBy({ email })) throw conflict('A user with this e-mail exists already');
    const token = generateToken();
    const expiresAt = new Date(Date.now() + SET_PASSWORD_LINK_LIFETIME_MS);
    const { user, account } = await this.saveUnlessTaken(() =>
      this.dataSource.transaction(async (manager) => {
        const account = accountId
          ? await manager.findOneBy(Account, { id: accountId })
          : await manager.save(Account, { id: randomUUID(), name: email, createdAt: new Date() });
        if (!account) throw notFound('Account');
        if (await manager.existsBy(User, { accountId: account.id })) throw conflict('This account has an owner already');
        const user = await manager.save(User, newUser(account.id, email, null));
        await manager.save(SetPasswordToken, { tokenHash: hashToken(token), userId: user.id, expiresAt, usedAt: null });
        return { user, account };
      }),
    );
    return {
      user: { id: user.id, email: user.email },
      account: { id: account.id, name: account.name },
      setPasswordUrl: `${this.options.publicUrl}/set-password?token=${token}`,
      expiresAt,
    };
  }

  /** Consumes a set-password link: sets the password, ends every other session, signs this browser in. */
  async setPassword(input: { token: string; password: string }, userAgent?: string): Promise<SignedIn> {
    const links = this.dataSource.getRepository(SetPasswordToken);
    const link = await links.findOneBy({ tokenHash: hashToken(input.token) });
    const user = link && (await this.users.findOneBy({ id: link.userId }));
    if (!link || !user || link.usedAt || link.expiresAt.getTime() <= Date.now()) {
      throw invalidRequest('token: this set-password link is unknown, used or expired');
    }
    requireGoodPassword(input.password, user.email);
    // Single use even when two requests race: only the one that marks it used goes on.
    if (!(await markLinkUsed(links, link.tokenHash))) throw invalidRequest('token: this set-password link is unknown, used or expired');
    await this.storePassword(user, input.password);
    return this.startSession(user, await this.accountOf(user), userAgent);
  }

  private async storePassword(user: User, password: string): Promise<void> {
    user.passwordHash = await hashPassword(password);
    user.passwordChangedAt = new Date();
    await this.users.save(user);
    await this.sessions.revokeAll(user.id);
  }

  private async startSession(user: User, account: AccountSummary, userAgent?: string): Promise<SignedIn> {
    const { token } = await this.sessions.create(user.id, userAgent);
    return { token, view: { user: { id: user.id, email: user.email }, account, csrfToken: csrfTokenOf(token) } };
  }

  private async accountOf(user: User): Promise<AccountSummary> {
    const account = await this.dataSource.getRepository(Account).findOneByOrFail({ id: user.accountId });
    return { id: account.id, name: account.name };
  }

  /** A unique index beat the existence check (two sign-ups with one e-mail at once): the same 409. */
  private async saveUnlessTaken<T>(save: () => Promise<T>): Promise<T> {
    try {
      return await save();
    } catch (error) {
      if (/unique|duplicate/i.test((error as Error).message)) throw conflict('A user with this e-mail exists already');
      throw error;
    }
  }
}

function requireGoodPassword(password: string, email: string): void {
  const problem = passwordProblem(password, email);
  if (problem) throw invalidRequest(problem);
}

const newUser = (accountId: string, email: string, passwordHash: string | null): User =>
  Object.assign(new User(), { id: randomUUID(), accountId, email, passwordHash, createdAt: new Date(), passwordChangedAt: null });

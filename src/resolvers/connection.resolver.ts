import { Arg, Ctx, FieldResolver, Mutation, Resolver, Root } from 'type-graphql';
import { invalidRequest } from '../errors.js';
import { connectionInput } from '../services/connections/connection.input.js';
import {
  ConnectAirtableTokenInput,
  ConnectAirtableTokenPayload,
  DisconnectAirtableInput,
  DisconnectAirtablePayload,
  StartAirtableOAuthInput,
  StartAirtableOAuthPayload,
} from './connection.inputs.js';
import { requireAccount, type GraphqlContext } from './context.js';
import { AccountType, toAccountType } from './types/account.type.js';
import { ConnectionType, SharedConnectionType, toConnectionType } from './types/connection.type.js';
import { parseInput } from './validate-input.js';

/** The account’s upstream connection: `viewer.connection` and the REST /connection writes. */
@Resolver(() => AccountType)
export class ConnectionResolver {
  @FieldResolver(() => ConnectionType, { nullable: true, description: 'The account’s upstream connection; null when it has none' })
  async connection(@Root() account: AccountType, @Ctx() context: GraphqlContext): Promise<ConnectionType | null> {
    const view = await context.services.connections.get(account.restId);
    return view && toConnectionType(view);
  }

  @FieldResolver(() => SharedConnectionType, {
    nullable: true,
    description:
      'The deployment’s shared connection while it acts for this account (no connection of its own, single-team mode): whose it is. Null when the account has its own connection, or the deployment shares none (then upstream work needs a connection)',
  })
  sharedConnection(@Root() account: AccountType, @Ctx() context: GraphqlContext): Promise<SharedConnectionType | null> {
    return context.services.airtableLookup.sharedConnection(account.restId);
  }

  @Mutation(() => StartAirtableOAuthPayload, {
    description:
      'Start connecting with OAuth 2.0 + PKCE (REST POST /connection/oauth/start); over HTTP only: the answer sets the cookie the callback checks, so open the URL in the browser that sent this',
  })
  async startAirtableOAuth(
    @Arg('input', () => StartAirtableOAuthInput, { description: 'Nothing to give but clientMutationId' }) input: StartAirtableOAuthInput,
    @Ctx() context: GraphqlContext,
  ): Promise<StartAirtableOAuthPayload> {
    const bindBrowser = context.bindOAuthBrowser;
    if (!bindBrowser) {
      throw invalidRequest(
        'startAirtableOAuth needs HTTP (POST /graphql): its answer gives the calling browser the cookie the OAuth callback checks',
      );
    }
    const { authorizeUrl, browserBinding } = await context.services.oauthFlow.start(requireAccount(context).id);
    bindBrowser(browserBinding);
    return { clientMutationId: input.clientMutationId ?? null, authorizeUrl };
  }

  @Mutation(() => ConnectAirtableTokenPayload, { description: 'Connect with a personal access token (REST PUT /connection)' })
  async connectAirtableToken(
    @Arg('input', () => ConnectAirtableTokenInput, { description: 'The personal access token' }) input: ConnectAirtableTokenInput,
    @Ctx() context: GraphqlContext,
  ): Promise<ConnectAirtableTokenPayload> {
    const account = requireAccount(context);
    const { token } = parseInput(connectionInput.setToken, { token: input.token });
    const connection = await context.services.connections.setToken(account.id, token);
    return { clientMutationId: input.clientMutationId ?? null, connection: toConnectionType(connection), viewer: toAccountType(account) };
  }

  @Mutation(() => DisconnectAirtablePayload, { description: 'Forget the upstream connection (REST DELETE /connection)' })
  async disconnectAirtable(
    @Arg('input', () => DisconnectAirtableInput, { description: 'Nothing to give but clientMutationId' }) input: DisconnectAirtableInput,
    @Ctx() context: GraphqlContext,
  ): Promise<DisconnectAirtablePayload> {
    const account = requireAccount(context);
    await context.services.connections.remove(account.id);
    return { clientMutationId: input.clientMutationId ?? null, viewer: toAccountType(account) };
  }
}

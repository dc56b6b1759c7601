import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { ApiKeyEdge, ApiKeyType } from './types/api-key.type.js';

@InputType('CreateApiKeyInput', { description: 'A new API key of the caller’s account' })
export class CreateApiKeyInput {
  @Field(() => String, { nullable: true, description: 'Any string of yours; the payload echoes it, to match answers to requests (Relay)' })
  clientMutationId?: string | null;

  @Field(() => String, { description: 'What the key is for (1–100 characters), shown in the list of keys' })
  name: string;
}

@ObjectType('CreateApiKeyPayload', { description: 'The new key: the only answer that ever holds the key itself' })
export class CreateApiKeyPayload {
  @Field(() => String, { nullable: true, description: 'The input’s clientMutationId; null when none was sent' })
  clientMutationId: string | null;

  @Field(() => String, { description: 'The key (sk_…), shown this once: only its hash is stored' })
  key: string;

  @Field(() => ApiKeyType, { description: 'The key as the list shows it' })
  apiKey: ApiKeyType;

  @Field(() => ApiKeyEdge, { description: 'The key’s edge in viewer.apiKeys, for Relay’s @appendEdge' })
  apiKeyEdge: InstanceType<typeof ApiKeyEdge>;
}

@InputType('RevokeApiKeyInput', { description: 'The API key to revoke' })
export class RevokeApiKeyInput {
  @Field(() => String, { nullable: true, description: 'Any string of yours; the payload echoes it, to match answers to requests (Relay)' })
  clientMutationId?: string | null;

  @Field(() => ID, { description: 'The key’s global id (ApiKey.id) or its restId' })
  id: string;
}

@ObjectType('RevokeApiKeyPayload', { description: 'What revokeApiKey revoked: requests with the key are refused (401) at once' })
export class RevokeApiKeyPayload {
  @Field(() => String, { nullable: true, description: 'The input’s clientMutationId; null when none was sent' })
  clientMutationId: string | null;

  @Field(() => ID, { description: 'Global id of the revoked key, for Relay’s @deleteRecord' })
  deletedId: string;
}

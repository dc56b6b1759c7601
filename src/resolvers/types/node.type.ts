import { Field, ID, InterfaceType } from 'type-graphql';

@InterfaceType('Node', { description: 'An object with an opaque global id (Relay Global Object Identification)' })
export abstract class Node {
  @Field(() => ID, { description: 'Opaque global id: pass it to node(id), or to lookups such as usageBase(id)' })
  id: string;
}

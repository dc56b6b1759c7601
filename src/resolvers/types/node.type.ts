import { Field, ID, InterfaceType } from 'type-graphql';

@InterfaceType('Node', { description: 'An object with an opaque global id (Relay Global Object Identification): refetch it with node(id)' })
export abstract class Node {
  @Field(() => ID, {
    description: 'Opaque global id, stable for the object’s life: pass it to node(id), or to lookups such as usageBase(id)',
  })
  id: string;
}

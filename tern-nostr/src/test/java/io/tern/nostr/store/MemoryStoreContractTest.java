package io.tern.nostr.store;

class MemoryStoreContractTest extends StoreContractTest {
    @Override
    StoreBackend open() {
        return new MemoryEvents();
    }
}

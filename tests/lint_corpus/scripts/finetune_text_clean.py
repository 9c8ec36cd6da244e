"""Fine-tune a text classifier with mixed precision: the usual loop, written with care."""
import math
import time

import torch
from torch.utils.data import DataLoader
from transformers import AutoModelForSequenceClassification, AutoTokenizer, get_linear_schedule_with_warmup

MODEL = "distilbert-base-uncased"
device = torch.device("cuda")
tokenizer = AutoTokenizer.from_pretrained(MODEL)
model = AutoModelForSequenceClassification.from_pretrained(MODEL, num_labels=2).to(device)


def collate(examples):
    enc = tokenizer([e["text"] for e in examples], padding=True, truncation=True, return_tensors="pt")
    enc["labels"] = torch.tensor([e["label"] for e in examples])
    return enc


def run(train_set, eval_set, epochs=3, log_every=50):
    train_loader = DataLoader(train_set, batch_size=32, shuffle=True, collate_fn=collate,
                              num_workers=4, pin_memory=True, persistent_workers=True)
    eval_loader = DataLoader(eval_set, batch_size=64, collate_fn=collate, num_workers=2, pin_memory=True)
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-5)
    total_steps = epochs * len(train_loader)
    scheduler = get_linear_schedule_with_warmup(optimizer, int(0.1 * total_steps), total_steps)
    scaler = torch.amp.GradScaler("cuda")
    step = 0
    for epoch in range(epochs):
        model.train()
        running = torch.zeros((), device=device)
        started = time.perf_counter()
        for batch in train_loader:
            batch = {k: v.to(device, non_blocking=True) for k, v in batch.items()}
            with torch.autocast("cuda", dtype=torch.bfloat16):
                loss = model(**batch).loss
            optimizer.zero_grad(set_to_none=True)
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
            scheduler.step()
            running += loss.detach()
            step += 1
            if step % log_every == 0:
                print(f"step {step}: loss {running.item() / log_every:.4f}")
                running.zero_()
        torch.cuda.synchronize()
        print(f"epoch {epoch} took {time.perf_counter() - started:.1f}s")

        model.eval()
        correct = torch.zeros((), device=device, dtype=torch.long)
        seen = 0
        with torch.inference_mode():
            for batch in eval_loader:
                batch = {k: v.to(device, non_blocking=True) for k, v in batch.items()}
                logits = model(**batch).logits
                correct += (logits.argmax(-1) == batch["labels"]).sum()
                seen += batch["labels"].shape[0]
        accuracy = correct.item() / max(seen, 1)
        print(f"epoch {epoch}: eval accuracy {accuracy:.3f}, perplexity-ish {math.exp(1 - accuracy):.2f}")

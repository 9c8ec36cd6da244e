"""Evaluate a segmentation model: mean IoU over the validation set."""
import numpy as np
import torch
from torch.utils.data import DataLoader

from mydata import VOCSegmentation


def iou(pred, target, num_classes=21):
    scores = []
    for cls in range(num_classes):
        inter = ((pred == cls) & (target == cls)).sum().item()
        union = ((pred == cls) | (target == cls)).sum().item()
        if union > 0:
            scores.append(inter / union)
    return np.mean(scores)


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    ious, all_preds = [], []
    for images, masks in loader:
        images, masks = images.to(device), masks.to(device)
        logits = model(images)["out"]
        pred = logits.argmax(1)
        ious.append(iou(pred, masks))
        all_preds.append(pred.cpu().numpy())
    return float(np.mean(ious)), np.concatenate(all_preds)


if __name__ == "__main__":
    device = torch.device("cuda")
    model = torch.hub.load("pytorch/vision", "deeplabv3_resnet50", weights="DEFAULT").to(device)
    loader = DataLoader(VOCSegmentation("val"), batch_size=8, num_workers=8, pin_memory=True)
    miou, preds = evaluate(model, loader, device)
    print(f"mIoU {miou:.3f} over {len(preds)} images")

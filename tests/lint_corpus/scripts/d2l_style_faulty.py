"""LeNet on Fashion-MNIST, in the style of the Dive into Deep Learning book (d2l)."""
import time

import torch
from torch import nn
from torch.utils import data
from torchvision import datasets, transforms


def try_gpu(i=0):
    """Return gpu(i) if exists, otherwise return cpu()."""
    if torch.cuda.device_count() >= i + 1:
        return torch.device(f"cuda:{i}")
    return torch.device("cpu")


class Accumulator:
    def __init__(self, n):
        self.data = [0.0] * n

    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]

    def __getitem__(self, idx):
        return self.data[idx]


def accuracy(y_hat, y):
    y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())


def load_data_fashion_mnist(batch_size):
    trans = transforms.ToTensor()
    train = datasets.FashionMNIST(root="../data", train=True, transform=trans, download=True)
    test = datasets.FashionMNIST(root="../data", train=False, transform=trans, download=True)
    return (data.DataLoader(train, batch_size, shuffle=True, num_workers=4),
            data.DataLoader(test, batch_size, shuffle=False, num_workers=4))


def evaluate_accuracy_gpu(net, data_iter, device):
    net.eval()
    metric = Accumulator(2)
    with torch.no_grad():
        for X, y in data_iter:
            X = X.to(device)
            y = y.to(device)
            metric.add(accuracy(net(X), y), y.numel())
    return metric[0] / metric[1]


def train_ch6(net, train_iter, test_iter, num_epochs, lr, device):
    net.to(device)
    optimizer = torch.optim.SGD(net.parameters(), lr=lr)
    loss = nn.CrossEntropyLoss()
    for epoch in range(num_epochs):
        metric = Accumulator(3)
        net.train()
        tic = time.time()
        for i, (X, y) in enumerate(train_iter):
            optimizer.zero_grad()
            X, y = X.to(device), y.to(device)
            y_hat = net(X)
            l = loss(y_hat, y)
            l.backward()
            optimizer.step()
            with torch.no_grad():
                metric.add(l * X.shape[0], accuracy(y_hat, y), X.shape[0])
        train_l = metric[0] / metric[2]
        test_acc = evaluate_accuracy_gpu(net, test_iter, device)
        print(f"epoch {epoch}: loss {train_l:.3f}, test acc {test_acc:.3f}, {time.time() - tic:.1f} sec")


if __name__ == "__main__":
    net = nn.Sequential(
        nn.Conv2d(1, 6, kernel_size=5, padding=2), nn.Sigmoid(), nn.AvgPool2d(kernel_size=2, stride=2),
        nn.Conv2d(6, 16, kernel_size=5), nn.Sigmoid(), nn.AvgPool2d(kernel_size=2, stride=2),
        nn.Flatten(), nn.Linear(16 * 5 * 5, 120), nn.Sigmoid(), nn.Linear(120, 84), nn.Sigmoid(),
        nn.Linear(84, 10))
    train_iter, test_iter = load_data_fashion_mnist(batch_size=256)
    train_ch6(net, train_iter, test_iter, 10, 0.9, try_gpu())
